package io.sluice.cluster.state.wire;

import static io.sluice.cluster.state.wire.PartitionEpochWireTest.decode;
import static io.sluice.cluster.state.wire.PartitionEpochWireTest.encode;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sluice.codec.error.CodecException;
import io.sluice.codec.message.Message;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/** The bad-input checks every cluster-state record gets: truncations, forged lengths, spliced garbage. Stateless. */
final class WireChecks {
    private WireChecks() {}

    /** Each message cut at every byte asks for more bytes (or, cut inside a length, fails typed). */
    static void assertEveryTruncationAsksForMore(List<Message> messages) {
        for (Message m : messages) {
            byte[] bytes = encode(m, 64);
            for (int len = 0; len < bytes.length; len++) {
                try {
                    assertNull(decode(Arrays.copyOf(bytes, len), 3), "truncated at " + len);
                } catch (CodecException typed) {
                    // a cut inside a length can also read as malformed; typed either way
                }
            }
        }
    }

    /**
     * Forges every 4-byte window of {@code m}'s bytes in turn to a huge length and hands what decodes to {@code use}:
     * never an OutOfMemoryError, only typed errors or requests for more bytes.
     */
    static void forgeEveryLength(Message m, Consumer<Message> use) {
        byte[] bytes = encode(m, 64);
        for (int at = 0; at + 4 <= bytes.length; at++) {
            byte[] forged = bytes.clone();
            ByteBuffer.wrap(forged, at, 4).order(ByteOrder.BIG_ENDIAN).putInt(0x7fff_fff0);
            try {
                Message read = decode(forged, 64);
                if (read != null) {
                    use.accept(read);
                }
            } catch (CodecException typed) {
                // typed
            }
        }
    }

    /** {@code m}'s bytes with {@code garbage} written over them from {@code at}, and the garbage alone, decoded. */
    static void decodeSplicedGarbage(Message m, byte[] garbage, int at, Consumer<Message> use) {
        byte[] spliced = encode(m, 64);
        for (int i = 0; i < garbage.length && at + i < spliced.length; i++) {
            spliced[at + i] = garbage[i];
        }
        for (byte[] bytes : List.of(spliced, garbage)) {
            try {
                Message read = decode(bytes, 5);
                if (read != null) {
                    use.accept(read);
                }
            } catch (CodecException typed) {
                // typed
            }
        }
    }
}
