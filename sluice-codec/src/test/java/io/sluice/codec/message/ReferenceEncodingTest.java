package io.sluice.codec.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.codec.sample.ClusterMessages;
import io.sluice.codec.sample.MoveAbort;
import io.sluice.codec.sample.PartitionState;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The resumable writer against a simple one-shot reference encoder, for any values and any buffer size. */
class ReferenceEncodingTest {

    /** Straightforward non-resumable encoder of the wire format. */
    private static final class Reference {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Reference uvarint(long v) {
            while ((v & ~0x7FL) != 0) {
                out.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
            return this;
        }

        Reference varlong(long v) {
            return uvarint((v << 1) ^ (v >> 63));
        }

        Reference fixed(long v, int bytes) {
            for (int i = bytes - 1; i >= 0; i--) {
                out.write((int) (v >>> (8 * i)));
            }
            return this;
        }

        Reference string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            uvarint(b.length + 1L);
            out.write(b, 0, b.length);
            return this;
        }
    }

    @Property(tries = 300)
    void shouldEncodePartitionStateExactlyLikeTheReferenceAtAnyBufferSize(
            @ForAll long msb,
            @ForAll long lsb,
            @ForAll int partition,
            @ForAll int epoch,
            @ForAll long start,
            @ForAll long end,
            @ForAll long hw,
            @ForAll int[] isr,
            @ForAll long lso,
            @ForAll @IntRange(min = 1, max = 200) int bufferSize) {
        PartitionState p = new PartitionState(new UUID(msb, lsb), partition, epoch, start, end, hw, isr, lso);
        Reference ref = new Reference()
                .uvarint(ClusterMessages.PARTITION_STATE + 1L)
                .uvarint(1)
                .fixed(msb, 8)
                .fixed(lsb, 8)
                .varlong(partition)
                .varlong(epoch)
                .varlong(start)
                .varlong(end)
                .varlong(hw)
                .uvarint(isr.length + 1L);
        for (int v : isr) {
            ref.varlong(v);
        }
        ref.varlong(lso);
        try (MessageWriter w = new MessageWriter()) {
            byte[] bytes = Chunks.write(w, p, bufferSize, bufferSize % 2 == 0);
            assertArrayEquals(ref.out.toByteArray(), bytes);
            assertEquals(
                    p, Chunks.read(new MessageReader(ClusterMessages.REGISTRY), bytes, 1 + bufferSize % 40, false));
        }
    }

    @Property(tries = 300)
    void shouldEncodeStringsExactlyLikeTheJdkUtf8Encoder(
            @ForAll String reason, @ForAll long moveId, @ForAll @IntRange(min = 1, max = 17) int bufferSize) {
        String wellFormed =
                new String(reason.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).replace('\uFFFD', '?');
        MoveAbort m = new MoveAbort(moveId, 1, 2, wellFormed);
        Reference ref = new Reference()
                .uvarint(ClusterMessages.MOVE_ABORT + 1L)
                .uvarint(0)
                .varlong(moveId)
                .varlong(1)
                .varlong(2)
                .string(wellFormed);
        try (MessageWriter w = new MessageWriter()) {
            byte[] bytes = Chunks.write(w, m, bufferSize, false);
            assertArrayEquals(ref.out.toByteArray(), bytes);
            assertEquals(m, Chunks.read(new MessageReader(ClusterMessages.REGISTRY), bytes, bufferSize, true));
        }
    }
}
