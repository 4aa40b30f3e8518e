package io.sluice.codec.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.codec.CodecConfig;
import io.sluice.codec.error.CodecException;
import io.sluice.codec.error.LimitExceededException;
import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.sample.ClusterFixtures;
import io.sluice.codec.sample.ClusterMessages;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BadInputTest {

    /** Feeds bytes to a fresh reader; returns the outcome: a message, null (needs more), or a typed error. */
    private static Object outcome(byte[] bytes, int chunk) {
        MessageReader r = new MessageReader(ClusterMessages.REGISTRY);
        try {
            Message m = null;
            for (int off = 0; off < bytes.length && m == null; ) {
                int n = Math.min(chunk, bytes.length - off);
                ByteBuffer b = ByteBuffer.wrap(bytes, off, n).slice();
                r.setBuffer(b);
                m = r.read();
                off += b.position();
            }
            return m;
        } catch (CodecException e) {
            return e;
        }
    }

    @Test
    void shouldEndRandomGarbageInATypedErrorOrNeedMoreBytesNeverAnotherException() {
        Random rnd = new Random(42);
        int errors = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] garbage = new byte[1 + rnd.nextInt(200)];
            rnd.nextBytes(garbage);
            if (rnd.nextBoolean()) {
                garbage[0] = (byte) (1 + rnd.nextInt(15));
                garbage[1 % garbage.length] = 0;
            }
            Object o = outcome(garbage, 1 + rnd.nextInt(64));
            if (o instanceof CodecException) {
                errors++;
            }
        }
        assertTrue(errors > 1000, "garbage mostly rejected, " + errors + " typed errors");
    }

    @Test
    void shouldSurviveEveryTruncationAndSingleByteMutationOfEveryMessageType() {
        Random rnd = new Random(7);
        try (MessageWriter w = new MessageWriter()) {
            for (Message m : ClusterFixtures.everyType()) {
                byte[] good = Chunks.write(w, m, 4096, false);
                for (int cut = 0; cut < good.length; cut++) {
                    byte[] truncated = java.util.Arrays.copyOf(good, cut);
                    Object o = outcome(truncated, 1 + cut % 9);
                    assertTrue(
                            o == null || o instanceof MalformedInputException,
                            m.getClass().getSimpleName() + " truncated at " + cut + " gave " + o);
                }
                for (int i = 0; i < good.length * 4; i++) {
                    byte[] mutated = good.clone();
                    mutated[rnd.nextInt(mutated.length)] ^= (byte) (1 + rnd.nextInt(255));
                    Object o = outcome(mutated, 1 + rnd.nextInt(32));
                    assertTrue(o == null || o instanceof Message || o instanceof CodecException, "got " + o);
                }
            }
        }
    }

    @Test
    void shouldRejectForgedArrayLengthAboveCapNamingTheField() {
        // PartitionMap header, controllerEpoch=0, mapVersion=0, brokerEndpoints list size forged to 2^40
        byte[] forged = {
            (byte) (ClusterMessages.PARTITION_MAP + 1),
            0,
            0,
            0,
            (byte) 0x81,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            (byte) 0x80,
            0x20
        };
        MessageReader r = new MessageReader(ClusterMessages.REGISTRY);
        r.setBuffer(ByteBuffer.wrap(forged));
        LimitExceededException e = assertThrows(LimitExceededException.class, r::read);
        assertTrue(e.getMessage().contains("PartitionMap.brokerEndpoints"), e.getMessage());
    }

    @Test
    void shouldNotAllocateMoreThanTheBytesPresentForAForgedLengthBelowTheCap() {
        // MoveAbort with a reason string declared 60 KB long, 10 bytes present; and an int array declared 60M long
        CodecConfig roomy = CodecConfig.DEFAULT;
        byte[] forgedString = {
            (byte) (ClusterMessages.MOVE_ABORT + 1),
            0,
            2,
            2,
            2,
            (byte) 0xE1,
            (byte) 0xD4,
            0x03,
            'a',
            'b',
            'c',
            'd',
            'e',
            'f',
            'g',
            'h',
            'i',
            'j'
        };
        byte[] forgedInts = {
            (byte) (ClusterMessages.PARTITION_STATE + 1),
            1,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            2,
            2,
            2,
            2,
            2,
            (byte) 0x81,
            (byte) 0xDE,
            (byte) 0xCE,
            0x1C,
            1,
            2,
            3
        };
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        for (byte[] forged : List.of(forgedString, forgedInts)) {
            MessageReader r = new MessageReader(ClusterMessages.REGISTRY, roomy);
            long before = mx.getThreadAllocatedBytes(tid);
            for (int i = 0; i < forged.length; i++) {
                r.setBuffer(ByteBuffer.wrap(forged, i, 1).slice());
                assertNull(r.read(), "needs more bytes");
            }
            long allocated = mx.getThreadAllocatedBytes(tid) - before;
            assertTrue(allocated < 16 * 1024, "allocated " + allocated + " bytes for a forged length");
        }
    }

    /** {@code prefix}, then {@code continued} varint bytes with the continuation bit set (0xFF), then {@code suffix}. */
    private static byte[] withContinuedVarint(byte[] prefix, int continued, byte... suffix) {
        byte[] bytes = new byte[prefix.length + continued + suffix.length];
        System.arraycopy(prefix, 0, bytes, 0, prefix.length);
        Arrays.fill(bytes, prefix.length, prefix.length + continued, (byte) 0xFF);
        System.arraycopy(suffix, 0, bytes, prefix.length + continued, suffix.length);
        return bytes;
    }

    /** Feeds {@code bytes} in chunks of 1, 3 and 64 bytes; each must end in a typed error saying {@code what}. */
    private static void assertMalformed(byte[] bytes, String what) {
        for (int chunk : new int[] {1, 3, 64}) {
            Object o = outcome(bytes, chunk);
            assertTrue(
                    o instanceof MalformedInputException
                            && ((Exception) o).getMessage().contains(what),
                    "got " + o);
        }
    }

    @Test
    void shouldRejectANegativeSchemaVersionNamingIt() {
        // type id, then a ten-byte varint version whose top bit is set (-1), then a field
        byte[] type = {(byte) (ClusterMessages.MOVE_CHUNK_ACK + 1)};
        assertMalformed(withContinuedVarint(type, 9, (byte) 1, (byte) 0), "schema version -1 is negative");
    }

    @Test
    void shouldRejectOverlongVarintAndBadBoolean() {
        // type id and version 0, then a varint of eleven bytes
        byte[] header = {(byte) (ClusterMessages.MOVE_CHUNK_ACK + 1), 0};
        assertMalformed(withContinuedVarint(header, 10, (byte) 1), "varint");
        byte[] badBoolean;
        try (MessageWriter w = new MessageWriter()) {
            badBoolean = Chunks.write(w, ClusterFixtures.everyType().get(7), 256, false);
        }
        badBoolean[badBoolean.length - 1] = 7;
        Object o = outcome(badBoolean, 5);
        assertTrue(
                o instanceof MalformedInputException
                        && ((Exception) o).getMessage().contains("MoveChunkHeader.lastChunkOfSegment"),
                "got " + o);
        assertEquals(MalformedInputException.class, o.getClass());
    }
}
