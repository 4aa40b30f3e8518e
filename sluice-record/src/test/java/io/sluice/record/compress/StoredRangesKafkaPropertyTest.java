package io.sluice.record.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Stored ranges of lz4 and snappy payloads built by Kafka's producer code: for random batches,
 * whenever ranges are given they are exactly the decoded bytes; compressible batches give none;
 * asking allocates nothing.
 */
class StoredRangesKafkaPropertyTest {

    private static final int SNAPPY = 2;
    private static final int LZ4 = 3;
    private static final int MANY_RANGES = 100_000;
    /** Keeps a try's batch (count x value size) within a few megabytes. */
    private static final int MAX_BATCH_BYTES = 3_000_000;

    private static PayloadDecompressor decompressor(int codec) {
        return codec == SNAPPY ? new SnappyPayloadDecompressor() : new Lz4PayloadDecompressor();
    }

    @Property(tries = 80)
    void shouldGiveExactlyTheDecodedBytesOfKafkaRandomBatches(
            @ForAll @IntRange(min = SNAPPY, max = LZ4) int codec,
            @ForAll @IntRange(min = 1, max = 2000) int count,
            @ForAll @IntRange(min = 0, max = 100_000) int valueSize,
            @ForAll boolean headers,
            @ForAll boolean direct,
            @ForAll long seed) {
        int records = Math.max(1, Math.min(count, MAX_BATCH_BYTES / (valueSize + 1)));
        byte[] payload = StoredPayloads.kafkaPayload(codec, new Random(seed), records, valueSize, headers);
        try (PayloadDecompressor decompressor = decompressor(codec)) {
            StoredPayloads.assertContract(
                    decompressor,
                    payload,
                    StoredPayloads.NO_CEILING,
                    direct,
                    MANY_RANGES,
                    records + " x " + valueSize + " B");
        }
    }

    @Property(tries = 40)
    void shouldRefuseKafkaCompressibleBatches(
            @ForAll @IntRange(min = SNAPPY, max = LZ4) int codec,
            @ForAll @IntRange(min = 2, max = 2000) int count,
            @ForAll @IntRange(min = 30, max = 100_000) int valueSize,
            @ForAll boolean direct) {
        int records = Math.max(2, Math.min(count, MAX_BATCH_BYTES / valueSize));
        byte[] payload = StoredPayloads.kafkaTextPayload(codec, records, valueSize);
        try (PayloadDecompressor decompressor = decompressor(codec)) {
            assertEquals(
                    PayloadDecompressor.NOT_STORED,
                    StoredPayloads.assertContract(
                                    decompressor,
                                    payload,
                                    StoredPayloads.NO_CEILING,
                                    direct,
                                    MANY_RANGES,
                                    records + " x " + valueSize + " B")
                            .rangeCount());
        }
    }

    @Test
    void shouldAllocateNothingWhenAskedForRanges() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Random random = new Random(21);
        for (int codec : new int[] {SNAPPY, LZ4}) {
            byte[] payload = StoredPayloads.kafkaPayload(codec, random, 200, 1000, false);
            int[] ranges = new int[2 * 128];
            try (PayloadDecompressor decompressor = decompressor(codec)) {
                for (boolean direct : new boolean[] {false, true}) {
                    java.nio.ByteBuffer source = StoredPayloads.source(payload, direct);
                    decompressor.begin(
                            source, StoredPayloads.SOURCE_OFFSET, StoredPayloads.SOURCE_OFFSET + payload.length);
                    int expected = decompressor.storedRanges(Long.MAX_VALUE, ranges);
                    assertTrue(expected > 0, "codec " + codec + " payload not stored");
                    int calls = 20_000;
                    int mismatches = countMismatches(decompressor, ranges, expected, calls); // warm-up
                    long before = threads.getCurrentThreadAllocatedBytes();
                    mismatches += countMismatches(decompressor, ranges, expected, calls);
                    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                    assertEquals(0, mismatches);
                    assertTrue(
                            allocated < calls,
                            "codec " + codec + " allocated " + allocated + " bytes in " + calls + " calls");
                }
            }
        }
    }

    private static int countMismatches(PayloadDecompressor decompressor, int[] ranges, int expected, int calls) {
        int mismatches = 0;
        for (int i = 0; i < calls; i++) {
            mismatches += decompressor.storedRanges(Long.MAX_VALUE, ranges) == expected ? 0 : 1;
        }
        return mismatches;
    }
}
