package io.sluice.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.segment.BatchStreamCheck;
import io.sluice.record.batch.RecordBatchDescriptor;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.zip.CRC32C;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link BatchStreamCheck}: a segment's batches checked on the bytes as they stream past, in runs of any size, give
 * the same verdict as a check of the whole file: every flipped byte the batch format protects is found, a restart at
 * a checked boundary continues, a forged length allocates nothing.
 */
class BatchStreamCheckTest {
    private static final int BATCHES = 12;
    private static final int RECORDS_PER_BATCH = 3;

    /** {@code BATCHES} real batches of {@code RECORDS_PER_BATCH} records each, offsets 0, 3, 6, ... */
    private static ByteBuffer segment() {
        ByteBuffer[] batches = new ByteBuffer[BATCHES];
        for (int i = 0; i < BATCHES; i++) {
            ByteBuffer b = TestBatches.batch(1_000L + i, RECORDS_PER_BATCH, 40 + 7 * i);
            b.putLong(RecordBatchDescriptor.BASE_OFFSET_OFFSET, (long) i * RECORDS_PER_BATCH);
            batches[i] = b;
        }
        return TestBatches.concat(batches);
    }

    private static final long LAST_OFFSET = (long) BATCHES * RECORDS_PER_BATCH - 1;

    /** Feeds {@code bytes} in runs of 1 to {@code maxRun} bytes, each a view placed anywhere in a larger buffer. */
    private static void feed(BatchStreamCheck check, ByteBuffer bytes, int from, int to, Random random, int maxRun) {
        int at = from;
        while (at < to) {
            int n = Math.min(to - at, 1 + random.nextInt(maxRun));
            int pad = random.nextInt(5);
            ByteBuffer carrier = ByteBuffer.allocate(pad + n + pad);
            carrier.position(pad);
            carrier.put(bytes.duplicate().position(at).limit(at + n));
            carrier.position(pad).limit(pad + n);
            check.accept(carrier);
            assertEquals(pad, carrier.position(), "the run is left unconsumed");
            at += n;
        }
    }

    @Property(tries = 200)
    void shouldPassAWholeSegmentFedInRunsOfAnySize(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 5000) int maxRun) {
        ByteBuffer bytes = segment();
        BatchStreamCheck check = new BatchStreamCheck(bytes.remaining(), LAST_OFFSET).restart(0, 0);
        feed(check, bytes, 0, bytes.remaining(), new Random(seed), maxRun);
        assertNull(check.problem(), check.problem());
        assertTrue(check.completeAndWhole(), check.endProblem());
        assertEquals(BATCHES, check.batches());
        assertEquals(bytes.remaining(), check.checkedUpTo());
        assertEquals(LAST_OFFSET + 1, check.nextOffsetAtLeast());
    }

    /**
     * Cuts the file into ranges at random points (inside headers, bodies, at batch boundaries), feeds each in runs of
     * any size and checks each range's derived checksum against the CRC-32C of its bytes; with {@code flip >= 0} one
     * byte is flipped first, so the check finds a problem and the ranges after it are checksummed directly.
     */
    private static void assertRangeChecksums(ByteBuffer bytes, Random random, int maxRange, int maxRun) {
        BatchStreamCheck check = new BatchStreamCheck(bytes.remaining(), LAST_OFFSET).restart(0, 0);
        int at = 0;
        while (at < bytes.remaining()) {
            int end = Math.min(bytes.remaining(), at + random.nextInt(maxRange + 1));
            check.startRange();
            feed(check, bytes, at, end, random, maxRun);
            CRC32C expected = new CRC32C();
            expected.update(bytes.duplicate().position(at).limit(end));
            assertEquals((int) expected.getValue(), check.rangeCrc(), "range " + at + ".." + end);
            assertEquals((int) expected.getValue(), check.rangeCrc(), "asking twice changes nothing");
            at = end;
        }
    }

    @Property(tries = 300)
    void shouldGiveTheChecksumOfAnyRangeWithoutReadingTheBodiesTwice(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 3000) int maxRange,
            @ForAll @IntRange(min = 1, max = 2000) int maxRun) {
        assertRangeChecksums(segment(), new Random(seed), maxRange, maxRun);
    }

    @Property(tries = 300)
    void shouldGiveTheChecksumOfTheBytesAsTheyArrivedAfterAProblem(
            @ForAll long seed,
            @ForAll @IntRange(min = 0, max = 1 << 20) int where,
            @ForAll @IntRange(min = 0, max = 7) int bit,
            @ForAll @IntRange(min = 1, max = 3000) int maxRange) {
        ByteBuffer bytes = segment();
        int position = where % bytes.remaining();
        bytes.put(position, (byte) (bytes.get(position) ^ (1 << bit)));
        assertRangeChecksums(bytes, new Random(seed), maxRange, 700);
    }

    @Property(tries = 300)
    void shouldFindAnyFlippedByteTheBatchFormatProtects(
            @ForAll long seed,
            @ForAll @IntRange(min = 0, max = 1 << 20) int where,
            @ForAll @IntRange(min = 0, max = 7) int bit) {
        ByteBuffer bytes = segment();
        int position = where % bytes.remaining();
        int batchStart = batchStartOf(bytes, position);
        int inBatch = position - batchStart;
        // the partition leader epoch lies outside the batch CRC: only the chunk checksum covers it in transit
        if (inBatch >= RecordBatchDescriptor.PARTITION_LEADER_EPOCH_OFFSET
                && inBatch < RecordBatchDescriptor.MAGIC_OFFSET) {
            return;
        }
        // a base offset raised into a gap (gaps are legal) is caught by the next batch, which then overlaps it
        int caughtBy = inBatch < RecordBatchDescriptor.BASE_OFFSET_LENGTH
                ? batchStart
                        + bytes.getInt(batchStart + RecordBatchDescriptor.BATCH_LENGTH_OFFSET)
                        + RecordBatchDescriptor.LOG_OVERHEAD
                : batchStart;
        bytes.put(position, (byte) (bytes.get(position) ^ (1 << bit)));
        BatchStreamCheck check = new BatchStreamCheck(bytes.remaining(), LAST_OFFSET).restart(0, 0);
        feed(check, bytes, 0, bytes.remaining(), new Random(seed), 700);
        assertFalse(check.completeAndWhole(), "byte " + position + " bit " + bit + " flipped went unnoticed");
        assertTrue(
                check.checkedUpTo() <= caughtBy,
                "passed the flipped batch at " + batchStart + ": " + check.checkedUpTo());
        assertNotNull(check.endProblem());
    }

    private static int batchStartOf(ByteBuffer bytes, int position) {
        int start = 0;
        while (true) {
            int size = bytes.getInt(start + RecordBatchDescriptor.BATCH_LENGTH_OFFSET)
                    + RecordBatchDescriptor.LOG_OVERHEAD;
            if (position < start + size) {
                return start;
            }
            start += size;
        }
    }

    @Property(tries = 100)
    void shouldContinueFromACheckedBoundaryAfterARestart(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 3000) int cut) {
        ByteBuffer bytes = segment();
        Random random = new Random(seed);
        BatchStreamCheck check = new BatchStreamCheck(bytes.remaining(), LAST_OFFSET).restart(0, 0);
        int firstPart = cut % bytes.remaining();
        feed(check, bytes, 0, firstPart, random, 300);
        ByteBuffer garbage = garbage(random, 500);
        feed(check, garbage, 0, 500, random, 100); // bytes of a chunk that is then rejected
        long boundary = check.checkedUpTo();
        long nextOffset = check.nextOffsetAtLeast();
        // garbage whose first bytes happen to be the segment's own (1 in 256 for each) may complete a batch truly
        assertTrue(boundary <= firstPart + sameBytes(bytes, firstPart, garbage), "checked up to " + boundary);
        check.restart(boundary, nextOffset);
        feed(check, bytes, (int) boundary, bytes.remaining(), random, 900);
        assertTrue(check.completeAndWhole(), check.endProblem());
        assertEquals(BATCHES, check.batches());
    }

    /**
     * The case the property once met: the rejected chunk's first byte (from seed -1) equals the segment's byte 936, the
     * last of a batch, so that batch is whole and truly checked past the cut.
     */
    @Example
    void shouldContinueWhenARejectedChunkHappensToCompleteABatch() {
        shouldContinueFromACheckedBoundaryAfterARestart(-1, 936);
    }

    /** How many of {@code other}'s first bytes equal those of {@code bytes} from {@code at}. */
    private static int sameBytes(ByteBuffer bytes, int at, ByteBuffer other) {
        int n = 0;
        while (n < other.remaining() && at + n < bytes.remaining() && other.get(n) == bytes.get(at + n)) {
            n++;
        }
        return n;
    }

    private static ByteBuffer garbage(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return ByteBuffer.wrap(b);
    }

    @Property(tries = 100)
    void shouldRefuseAForgedLengthWithoutAllocating(
            @ForAll @IntRange(min = 62, max = Integer.MAX_VALUE - 100) int forged) {
        ByteBuffer bytes = segment();
        // the batch's own length is not a forgery (jqwik tried it once: 190)
        Assume.that(forged != bytes.getInt(RecordBatchDescriptor.BATCH_LENGTH_OFFSET));
        bytes.putInt(RecordBatchDescriptor.BATCH_LENGTH_OFFSET, forged);
        BatchStreamCheck check = new BatchStreamCheck(bytes.remaining(), LAST_OFFSET).restart(0, 0);
        check.accept(bytes);
        assertFalse(check.completeAndWhole());
        long sizeOfFirst = (long) forged + RecordBatchDescriptor.LOG_OVERHEAD;
        if (sizeOfFirst > bytes.remaining()) {
            assertTrue(check.problem().contains("batchLength " + forged), check.problem());
        }
        assertEquals(0, check.checkedUpTo());
    }

    @Property(tries = 50)
    void shouldNameAFileThatEndsInsideABatchOrBeforeItsLastOffset(@ForAll @IntRange(min = 1, max = 200) int missing) {
        ByteBuffer bytes = segment();
        int kept = Math.max(0, bytes.remaining() - missing);
        BatchStreamCheck truncated = new BatchStreamCheck(bytes.remaining(), LAST_OFFSET).restart(0, 0);
        truncated.accept(bytes.duplicate().limit(kept));
        assertFalse(truncated.completeAndWhole());
        assertTrue(truncated.endProblem().contains("not a whole batch"), truncated.endProblem());

        BatchStreamCheck shortOfOffsets = new BatchStreamCheck(bytes.remaining(), LAST_OFFSET + missing).restart(0, 0);
        shortOfOffsets.accept(bytes.duplicate());
        assertFalse(shortOfOffsets.completeAndWhole());
        assertTrue(
                shortOfOffsets.endProblem().contains("next offset " + (LAST_OFFSET + 1)), shortOfOffsets.endProblem());
    }
}
