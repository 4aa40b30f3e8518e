package io.sluice.record.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.ByteWindow;
import io.sluice.record.batch.RecordBatchDescriptor;
import io.sluice.record.testing.KafkaBatches;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Test support for {@link PayloadDecompressor#storedRanges}: payloads built by Kafka's producer
 * code, damaged payloads, and the check that stored ranges, when given, are exactly what the
 * codec's streaming decoder yields for the same payload.
 *
 * <p>Not thread-safe; one per test.
 */
final class StoredPayloads {

    static final long NO_CEILING = Long.MAX_VALUE;
    static final int MANY_RANGES = 100_000;
    /** Where payloads are put in their source buffer: ranges must index the source, not the payload. */
    static final int SOURCE_OFFSET = 3;

    private static final int SMALL_WINDOW = 1024;

    /** What draining a payload through the streaming decoder gave: the bytes, or the error. */
    record Outcome(byte[] bytes, String error) {}

    /** What one payload gave: stored ranges (or {@link PayloadDecompressor#NOT_STORED}) and the decoder's outcome. */
    record Verdict(int rangeCount, byte[] concatenation, Outcome streamed) {
        boolean stored() {
            return rangeCount >= 0;
        }
    }

    private StoredPayloads() {}

    /**
     * The payload at {@link #SOURCE_OFFSET} of a buffer with bytes after it; heap buffers are
     * little-endian, so that reads depending on the caller's byte order show.
     */
    static ByteBuffer source(byte[] payload, boolean direct) {
        int capacity = SOURCE_OFFSET + payload.length + SOURCE_OFFSET;
        ByteBuffer source = direct
                ? ByteBuffer.allocateDirect(capacity)
                : ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
        return source.put(SOURCE_OFFSET, payload);
    }

    /** Drains {@code source[from, to)}, already begun, through a small direct window. */
    static Outcome drainBegun(PayloadDecompressor decompressor, long ceiling) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            readAll(new ByteWindow().streaming(ByteBuffer.allocateDirect(SMALL_WINDOW), decompressor, ceiling), out);
            return new Outcome(out.toByteArray(), null);
        } catch (BatchFormatException e) {
            return new Outcome(null, e.reason() + ": " + e.getMessage());
        }
    }

    /** Reads a streaming window to its end into {@code out}. */
    static void readAll(ByteWindow window, ByteArrayOutputStream out) throws BatchFormatException {
        while (window.hasRemaining()) {
            for (int i = window.position(); i < window.limit(); i++) {
                out.write(window.buffer().get(i));
            }
            window.position(window.limit());
        }
    }

    static Outcome drain(PayloadDecompressor decompressor, byte[] payload, long ceiling, boolean direct) {
        ByteBuffer source = source(payload, direct);
        try {
            decompressor.begin(source, SOURCE_OFFSET, SOURCE_OFFSET + payload.length);
        } catch (BatchFormatException e) {
            return new Outcome(null, e.reason() + ": " + e.getMessage());
        }
        return drainBegun(decompressor, ceiling);
    }

    /**
     * Begins the payload, asks for its stored ranges, then drains it through the same decompressor
     * (the ranges must have consumed nothing); the outcome must be the one a fresh drain gives.
     */
    static Verdict verdict(
            PayloadDecompressor decompressor, byte[] payload, long ceiling, boolean direct, int maxRanges) {
        ByteBuffer source = source(payload, direct);
        int[] ranges = new int[2 * maxRanges];
        int count;
        Outcome streamed;
        try {
            decompressor.begin(source, SOURCE_OFFSET, SOURCE_OFFSET + payload.length);
            count = decompressor.storedRanges(ceiling, ranges);
            streamed = drainBegun(decompressor, ceiling);
        } catch (BatchFormatException e) {
            count = decompressor.storedRanges(ceiling, ranges);
            assertEquals(PayloadDecompressor.NOT_STORED, count, "ranges of a payload whose header failed");
            streamed = new Outcome(null, e.reason() + ": " + e.getMessage());
        }
        Outcome fresh = drain(decompressor, payload, ceiling, direct);
        assertEquals(fresh.error(), streamed.error(), "asking for the ranges changed the decoder's verdict");
        assertArrayEquals(fresh.bytes(), streamed.bytes(), "asking for the ranges changed the decoded bytes");
        return new Verdict(count, count < 0 ? null : concatenation(source, ranges, count), streamed);
    }

    /** The contract: stored ranges are given only for a payload the decoder accepts, and are exactly its bytes. */
    static Verdict assertContract(
            PayloadDecompressor decompressor,
            byte[] payload,
            long ceiling,
            boolean direct,
            int maxRanges,
            String what) {
        Verdict verdict = verdict(decompressor, payload, ceiling, direct, maxRanges);
        assertTrue(
                verdict.rangeCount() >= PayloadDecompressor.NOT_STORED && verdict.rangeCount() <= maxRanges,
                what + ": " + verdict.rangeCount() + " ranges");
        if (verdict.stored()) {
            assertNull(verdict.streamed().error(), what + ": stored ranges given for a payload the decoder rejects");
            assertArrayEquals(
                    verdict.streamed().bytes(),
                    verdict.concatenation(),
                    what + ": stored ranges differ from the decoded bytes");
        }
        return verdict;
    }

    /**
     * Kafka batches of random values, 1 to 2000 records of 1000 to 100,000 bytes (at most 4 MB):
     * each is stored, as one range per block of {@code blockBytes} (Kafka's producer writes one
     * stored block, or one literal, per block of incompressible data).
     */
    static void assertKafkaRandomPayloadsStored(PayloadDecompressor decompressor, int codec, int blockBytes) {
        Random random = new Random(codec);
        for (int count : new int[] {1, 7, 200, 2000}) {
            for (int valueSize : new int[] {1000, 10_000, 100_000}) {
                int records = Math.max(1, Math.min(count, 4_000_000 / valueSize));
                byte[] payload = kafkaPayload(codec, random, records, valueSize, false);
                String what = records + " x " + valueSize + " B";
                Verdict verdict =
                        assertContract(decompressor, payload, NO_CEILING, random.nextBoolean(), MANY_RANGES, what);
                assertTrue(verdict.stored(), what + ": not stored");
                int blocks = (verdict.concatenation().length + blockBytes - 1) / blockBytes;
                assertEquals(blocks, verdict.rangeCount(), what + ": one range per " + blockBytes + "-byte block");
            }
        }
    }

    /** Kafka batches of 1 to 2000 compressible values of 100 to 20,000 bytes: none is stored. */
    static void assertKafkaTextPayloadsRefused(PayloadDecompressor decompressor, int codec) {
        for (int count : new int[] {1, 20, 2000}) {
            for (int valueSize : new int[] {100, 1000, 20_000}) {
                int records = Math.max(1, Math.min(count, 4_000_000 / valueSize));
                byte[] payload = kafkaTextPayload(codec, records, valueSize);
                assertEquals(
                        PayloadDecompressor.NOT_STORED,
                        assertContract(
                                        decompressor,
                                        payload,
                                        NO_CEILING,
                                        count % 2 == 0,
                                        MANY_RANGES,
                                        records + " x " + valueSize)
                                .rangeCount());
            }
        }
    }

    /**
     * Checks the contract for {@code cases} payloads: every third forged, the others {@link #mutate}d
     * from {@code valid}, at random ceilings (up to {@code ceiling}) and range capacities, in heap and
     * direct buffers; returns how many were stored.
     */
    static int countStoredOfDamaged(
            PayloadDecompressor decompressor,
            byte[][] valid,
            Function<Random, byte[]> forged,
            Random random,
            int cases,
            long ceiling) {
        int stored = 0;
        for (int i = 0; i < cases; i++) {
            byte[] payload = i % 3 == 0
                    ? forged.apply(random)
                    : mutate(valid[random.nextInt(valid.length)], valid, random, i % 6);
            long caseCeiling = random.nextInt(4) == 0 ? random.nextInt(300_000) : ceiling;
            int maxRanges = random.nextInt(4) == 0 ? random.nextInt(4) : MANY_RANGES;
            stored += assertContract(decompressor, payload, caseCeiling, random.nextBoolean(), maxRanges, "case " + i)
                            .stored()
                    ? 1
                    : 0;
        }
        return stored;
    }

    private static byte[] concatenation(ByteBuffer source, int[] ranges, int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            int from = ranges[2 * i];
            int to = ranges[2 * i + 1];
            assertTrue(
                    SOURCE_OFFSET <= from && from <= to && to <= source.capacity() - SOURCE_OFFSET,
                    "range " + from + ".." + to + " outside the payload");
            for (int at = from; at < to; at++) {
                out.write(source.get(at));
            }
        }
        return out.toByteArray();
    }

    /** The compressed payload of a batch Kafka's producer code builds from {@code count} records of random values. */
    static byte[] kafkaPayload(int codec, Random random, int count, int valueSize, boolean headers) {
        List<KafkaBatches.Rec> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Header[] recordHeaders = headers
                    ? new Header[] {new RecordHeader("header-key-" + random.nextInt(1000), randomBytes(random, 8))}
                    : new Header[0];
            byte[] key = random.nextBoolean() ? null : randomBytes(random, 8);
            records.add(
                    new KafkaBatches.Rec(1_700_000_000_000L + i, key, randomBytes(random, valueSize), recordHeaders));
        }
        return payloadOf(KafkaBatches.batch(codec, records));
    }

    /** A compressible payload (repeated JSON-like text) built by Kafka's producer code. */
    static byte[] kafkaTextPayload(int codec, int count, int valueSize) {
        return payloadOf(KafkaBatches.simple(codec, count, valueSize, 1_700_000_000_000L));
    }

    private static byte[] payloadOf(ByteBuffer batch) {
        byte[] bytes = new byte[batch.remaining() - RecordBatchDescriptor.RECORDS_OFFSET];
        batch.get(RecordBatchDescriptor.RECORDS_OFFSET, bytes);
        return bytes;
    }

    static byte[] randomBytes(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.write(part, 0, part.length);
        }
        return out.toByteArray();
    }

    /**
     * 0: intact, 1: one to three flipped bytes, 2: truncated, 3: extended with random bytes, 4: spliced
     * with another payload, 5: a run of bytes removed from the middle.
     */
    static byte[] mutate(byte[] payload, byte[][] others, Random random, int kind) {
        byte[] copy = payload.clone();
        switch (kind) {
            case 1 -> {
                for (int flips = 1 + random.nextInt(3); flips > 0 && copy.length > 0; flips--) {
                    copy[random.nextInt(copy.length)] ^= (byte) (1 + random.nextInt(255));
                }
            }
            case 2 -> copy = Arrays.copyOf(copy, random.nextInt(copy.length + 1));
            case 3 -> copy = concat(copy, randomBytes(random, 1 + random.nextInt(20)));
            case 4 -> {
                byte[] other = others[random.nextInt(others.length)];
                int head = random.nextInt(copy.length + 1);
                int tail = random.nextInt(other.length + 1);
                copy = concat(Arrays.copyOf(copy, head), Arrays.copyOfRange(other, tail, other.length));
            }
            case 5 -> {
                int from = random.nextInt(copy.length + 1);
                int to = from + random.nextInt(copy.length - from + 1);
                copy = concat(Arrays.copyOf(copy, from), Arrays.copyOfRange(copy, to, copy.length));
            }
            default -> {}
        }
        return copy;
    }
}
