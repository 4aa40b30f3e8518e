package io.sluice.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.segment.BatchHeaderTable;
import io.sluice.log.segment.BatchHeaderTables;
import io.sluice.log.segment.BatchScanner;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.ship.SegmentRangeChecksum;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link BatchHeaderTable}: a segment created with a budget keeps each appended batch's header checksums; a range's
 * checksum taken from them equals the CRC-32C of the range's bytes and the checksum of the header walk, while only the
 * two batches the range cuts are read; truncation, closing and the budget let tables go, oldest first.
 */
class BatchHeaderTableTest {
    private static final int BATCHES = SegmentRangeChecksumTest.BATCHES;

    /** A segment in a fresh directory holding {@link SegmentRangeChecksumTest#segment}'s batches, appended at once. */
    private static LogSegment segment(Path dir, long seed, BatchHeaderTables tables) throws IOException {
        Files.createDirectories(dir);
        LogSegment segment = LogSegment.create(dir, 0, 4096, 1 << 20, 0L, tables);
        segment.append(SegmentRangeChecksumTest.segment(seed), new RecordBatchView());
        return segment;
    }

    private static ByteBuffer bytesOf(LogSegment segment) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(segment.size());
        while (bytes.hasRemaining()) {
            segment.channel().read(bytes, bytes.position());
        }
        return bytes.flip();
    }

    @Property(tries = 100)
    void shouldGiveEveryRangesBytesChecksumFromTheTableReadingOnlyTheCutBatches(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 20_000) int maxRange) throws IOException {
        Path dir = Files.createTempDirectory("batch-headers");
        LogSegment segment = segment(dir, seed, new BatchHeaderTables(1 << 20));
        try {
            BatchHeaderTable headers = segment.batchHeaders();
            assertNotNull(headers, "a segment created with a budget keeps its headers");
            assertEquals(BATCHES, headers.count());
            assertEquals(segment.size(), headers.end());
            ByteBuffer bytes = bytesOf(segment);
            int size = bytes.remaining();
            Random random = new Random(seed ^ 0x9E3779B97F4A7C15L);
            SegmentRangeChecksum fromTable = new SegmentRangeChecksum();
            SegmentRangeChecksum walked = new SegmentRangeChecksum();
            for (int n = 0; n < 30; n++) {
                int from = random.nextInt(size);
                int length = Math.min(size - from, random.nextInt(maxRange + 1));
                int expected = SegmentRangeChecksumTest.crcOf(bytes, from, from + length);
                assertEquals(
                        expected,
                        fromTable.of(segment.channel(), from, length, size, headers),
                        "range [" + from + ", " + (from + length) + ") from the table");
                assertEquals(expected, walked.of(segment.channel(), from, length, size), "the same range walked");
                int whole = 0;
                int wholeBytes = 0;
                for (int i = 0; i < headers.count(); i++) {
                    int batchEnd = headers.endOf(i, headers.count());
                    if (headers.position(i) >= from && batchEnd <= from + length) {
                        whole++;
                        wholeBytes += batchEnd - headers.position(i);
                    }
                }
                long readBefore = fromTable.bytesChecksummed();
                long combinedBefore = fromTable.batchesCombined();
                fromTable.of(segment.channel(), from, length, size, headers);
                assertEquals(whole, fromTable.batchesCombined() - combinedBefore, "every whole batch combined");
                assertEquals(
                        length - wholeBytes,
                        fromTable.bytesChecksummed() - readBefore,
                        "only the cut batches' bytes read");
            }
        } finally {
            segment.closeAndDelete();
            Files.delete(dir);
        }
    }

    @Test
    void shouldWalkFromTheTablesBoundaryARangeThatIsNotInThePageCache(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        LogSegment segment = segment(dir, 11, new BatchHeaderTables(1 << 20));
        ByteBuffer bytes = bytesOf(segment);
        int size = bytes.remaining();
        BatchHeaderTable headers = segment.batchHeaders();
        int cut = headers.position(30) + 5;
        int end = headers.position(35);
        SegmentRangeChecksum cached = new SegmentRangeChecksum((mapping, position, length) -> true);
        SegmentRangeChecksum cold = new SegmentRangeChecksum((mapping, position, length) -> position < cut);

        for (SegmentRangeChecksum checksum : new SegmentRangeChecksum[] {cached, cold}) {
            assertEquals(
                    SegmentRangeChecksumTest.crcOf(bytes, 0, cut),
                    checksum.of(segment.channel(), 0, cut, size, headers));
            assertEquals(1, checksum.rangesFromTable());
            assertEquals(0, checksum.headersRead());
            assertEquals(
                    SegmentRangeChecksumTest.crcOf(bytes, cut, end),
                    checksum.of(segment.channel(), cut, end - cut, size, headers));
        }
        assertEquals(2, cached.rangesFromTable());
        assertEquals(0, cached.headersRead(), "a range in the page cache is taken from the table");
        assertEquals(1, cold.rangesFromTable());
        assertEquals(5, cold.headersRead(), "the walk reads the headers of batches 30 to 34 only, not from the start");
        segment.close();
    }

    @Test
    void shouldFallBackToTheWalkWhenTheTableDoesNotCoverTheSegment(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        LogSegment segment = segment(dir, 7, new BatchHeaderTables(1 << 20));
        ByteBuffer bytes = bytesOf(segment);
        BatchHeaderTable headers = segment.batchHeaders();
        int shorter = headers.position(BATCHES - 1); // a pin taken before the last batch
        SegmentRangeChecksum checksum = new SegmentRangeChecksum();
        assertEquals(
                SegmentRangeChecksumTest.crcOf(bytes, 10, shorter),
                checksum.of(segment.channel(), 10, shorter - 10, shorter, headers));
        segment.close();
    }

    @Test
    void shouldLetTheTableGoOnTruncationAndCloseAndKeepNoneWithoutABudget(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        BatchHeaderTables tables = new BatchHeaderTables(1 << 20);
        LogSegment segment = segment(dir.resolve("a"), 3, tables);
        assertTrue(tables.bytes() > 0);
        BatchHeaderTable pinned = segment.batchHeaders(); // as a move's source holds it
        segment.truncateTo(10, new BatchScanner());
        assertNull(segment.batchHeaders(), "truncation lets the table go");
        assertEquals(-1, pinned.end(), "a holder of the table sees it no longer describes the segment");
        assertEquals(0, tables.bytes());
        segment.close();

        LogSegment second = segment(dir.resolve("b"), 4, tables);
        assertTrue(tables.bytes() > 0);
        second.close();
        assertEquals(0, tables.bytes(), "closing lets the table go");

        LogSegment none = segment(dir.resolve("c"), 5, BatchHeaderTables.none());
        assertNull(none.batchHeaders(), "no budget, no table");
        none.close();
    }

    @Test
    void shouldDropTheOldestTablesFirstToStayWithinTheBudget(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        BatchHeaderTables tables = new BatchHeaderTables(2_000); // room for two tables of 64 batches, not three
        LogSegment first = segment(dir.resolve("1"), 1, tables);
        LogSegment second = segment(dir.resolve("2"), 2, tables);
        assertNotNull(first.batchHeaders());
        assertNotNull(second.batchHeaders());
        LogSegment third = segment(dir.resolve("3"), 3, tables);
        assertNull(first.batchHeaders(), "the oldest table went");
        assertNotNull(second.batchHeaders());
        assertNotNull(third.batchHeaders());
        assertEquals(1, tables.droppedForBudget());
        assertTrue(tables.bytes() <= 2_000, "within budget: " + tables.bytes());
        for (LogSegment s : new LogSegment[] {first, second, third}) {
            s.close();
        }
        assertEquals(0, tables.bytes());
    }
}
