package io.sluice.broker.move;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.LogConfig;
import io.sluice.log.segment.SegmentFileNames;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StagingArea#adopt}: a new source's listing that cannot be taken (a staged file it needs cannot be opened or
 * replaced) leaves none of the last listing's files open. A file left open would keep its pending writes going while
 * the next attempt opens the same file again: two writers on one staged file. And a listing of another history (an
 * unclean election since the last one) keeps nothing staged.
 */
class StagingAreaTest {
    private static final int SEGMENT_BYTES = 1000;

    @TempDir
    Path dir;

    private static MoveSegmentList listing(long... baseOffsets) {
        MoveSegmentList listing = new MoveSegmentList();
        int n = baseOffsets.length;
        listing.segmentBaseOffsets = baseOffsets.clone();
        listing.segmentLastOffsets = new long[n];
        listing.segmentSizes = new int[n];
        for (int i = 0; i < n; i++) {
            listing.segmentLastOffsets[i] = baseOffsets[i] + 9;
            listing.segmentSizes[i] = SEGMENT_BYTES;
        }
        listing.logStartOffset = baseOffsets[0];
        listing.boundaryOffset = baseOffsets[n - 1] + 10;
        return listing;
    }

    @Test
    void shouldCloseTheLastListingsFilesWhenTheNextCannotBeTaken() throws Exception {
        Path partitionDir = Files.createDirectories(dir.resolve("orders-3"));
        try (StagingArea staging = StagingArea.open(partitionDir, new MoveCodec(), LogConfig.defaults(), false)) {
            staging.adopt(listing(0, 10));
            List<StagedFile> last = List.copyOf(staging.files());
            assertEquals(2, last.size());
            // the next source lists segment 0 as before, then a segment 5 whose file cannot be created
            Path inTheWay = SegmentFileNames.logFile(StagingArea.dirOf(partitionDir), 5);
            Files.createDirectories(inTheWay.resolve("not-empty"));

            assertThrows(IOException.class, () -> staging.adopt(listing(0, 5)));

            assertTrue(last.get(0).channel().isOpen(), "segment 0, taken again, stays open for the next attempt");
            assertFalse(last.get(1).channel().isOpen(), "segment 10, not listed again, was closed");
        }
    }

    /** One batch of offsets 0-9 as a source's segment holds it. */
    private static ByteBuffer tenRecords() {
        SimpleRecord[] records = new SimpleRecord[10];
        for (int i = 0; i < records.length; i++) {
            records[i] = new SimpleRecord(1_700_000_000_000L, ("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(0L, Compression.NONE, records).buffer();
    }

    /** Segment 0 holding offsets 0-9 in {@code size} bytes, with the leader epochs {@code epochs} ("epoch@start"). */
    private static MoveSegmentList oneSegment(int size, int[] epochs, long[] starts) {
        MoveSegmentList listing = listing(0);
        listing.segmentSizes[0] = size;
        listing.epochs = epochs;
        listing.epochStartOffsets = starts;
        return listing;
    }

    @Test
    void shouldDropWhatWasStagedWhenTheNextListingTellsAnotherHistory() throws Exception {
        Path partitionDir = Files.createDirectories(dir.resolve("orders-4"));
        ByteBuffer batch = tenRecords();
        int size = batch.remaining();
        MoveSegmentList before = oneSegment(size, new int[] {0}, new long[] {0});
        try (StagingArea staging = StagingArea.open(partitionDir, new MoveCodec(), LogConfig.defaults(), false)) {
            staging.adopt(before);
        }
        try (FileChannel file = FileChannel.open(
                SegmentFileNames.logFile(StagingArea.dirOf(partitionDir), 0), StandardOpenOption.WRITE)) {
            file.write(batch, 0); // received and verified before the target stopped
        }
        try (StagingArea restarted = StagingArea.open(partitionDir, new MoveCodec(), LogConfig.defaults(), false)) {
            assertEquals(size, restarted.adopt(before), "the same history again: the staged batch is kept");
        }

        // an unclean election since: the new leader's epoch 3 starts at offset 5, inside the staged batch
        MoveSegmentList after = oneSegment(size, new int[] {0, 3}, new long[] {0, 5});
        try (StagingArea restarted = StagingArea.open(partitionDir, new MoveCodec(), LogConfig.defaults(), false)) {
            assertEquals(0, restarted.adopt(after), "nothing staged from the old history is kept");
            assertEquals(0, Files.size(SegmentFileNames.logFile(StagingArea.dirOf(partitionDir), 0)));
        }
    }

    @Test
    void shouldKeepACompactedSegmentsStagedBytesOnlyForTheSameFile() throws Exception {
        ByteBuffer batch = tenRecords();
        int size = batch.remaining();
        // segment 0 listed as two batches (offsets 0-19); the first was received before the target stopped
        MoveSegmentList first = oneSegment(2 * size, new int[] {0}, new long[] {0});
        first.segmentLastOffsets[0] = 19;
        first.boundaryOffset = 20;
        // the next source's copy of segment 0: cleaned by its own cleaner, so of another size and bytes
        MoveSegmentList otherCopy = oneSegment(2 * size - 1, new int[] {0}, new long[] {0});
        otherCopy.segmentLastOffsets[0] = 19;
        otherCopy.boundaryOffset = 20;
        for (boolean compact : new boolean[] {true, false}) {
            LogConfig config = LogConfig.builder().compact(compact).build();
            Path partitionDir = Files.createDirectories(dir.resolve("orders-" + (compact ? 5 : 6)));
            try (StagingArea staging = StagingArea.open(partitionDir, new MoveCodec(), config, false)) {
                staging.adopt(first);
            }
            try (FileChannel file = FileChannel.open(
                    SegmentFileNames.logFile(StagingArea.dirOf(partitionDir), 0), StandardOpenOption.WRITE)) {
                file.write(batch.duplicate(), 0);
            }
            try (StagingArea restarted = StagingArea.open(partitionDir, new MoveCodec(), config, false)) {
                assertEquals(
                        size,
                        restarted.adopt(first),
                        "the same file again: the staged batch is kept (compact " + compact + ")");
            }
            try (StagingArea restarted = StagingArea.open(partitionDir, new MoveCodec(), config, false)) {
                assertEquals(
                        compact ? 0 : size,
                        restarted.adopt(otherCopy),
                        compact
                                ? "another cleaning of the segment: nothing staged from the last one is kept"
                                : "another replica's copy of an uncompacted segment starts with the same bytes");
            }
        }
    }

    @Test
    void shouldTellHistoriesApartOnlyWhereBothListingsReach() {
        MoveSegmentList earlier = listing(0, 10);
        earlier.epochs = new int[] {0, 1};
        earlier.epochStartOffsets = new long[] {0, 15};
        MoveSegmentList shorter = listing(0);
        shorter.epochs = new int[] {0};
        shorter.epochStartOffsets = new long[] {0};
        assertTrue(EpochHistoryMatch.agree(earlier, shorter), "the shorter listing ends before epoch 1 starts");

        MoveSegmentList diverged = listing(0, 10);
        diverged.epochs = new int[] {0, 2};
        diverged.epochStartOffsets = new long[] {0, 12};
        assertFalse(EpochHistoryMatch.agree(earlier, diverged));
        assertFalse(EpochHistoryMatch.agree(diverged, earlier));

        MoveSegmentList trimmed = listing(10);
        trimmed.epochs = new int[] {0, 1};
        trimmed.epochStartOffsets = new long[] {10, 15};
        assertTrue(EpochHistoryMatch.agree(earlier, trimmed), "a log start moved up keeps the history");
    }

    @Test
    void shouldTakeAnEpochThatHoldsNoOffsetAsTheSameHistory() {
        // a replica elected for epoch 1 at offset 12 wrote nothing in it before epoch 2's leader took over there: its
        // cache keeps the empty epoch 1 beside epoch 2, a replica that never led in epoch 1 has none
        MoveSegmentList ledInEpochOne = listing(0, 10);
        ledInEpochOne.epochs = new int[] {0, 1, 2};
        ledInEpochOne.epochStartOffsets = new long[] {0, 12, 12};
        MoveSegmentList followed = listing(0, 10);
        followed.epochs = new int[] {0, 2};
        followed.epochStartOffsets = new long[] {0, 12};
        assertTrue(EpochHistoryMatch.agree(ledInEpochOne, followed));
        assertTrue(EpochHistoryMatch.agree(followed, ledInEpochOne));

        MoveSegmentList otherHistory = listing(0, 10);
        otherHistory.epochs = new int[] {0, 1};
        otherHistory.epochStartOffsets = new long[] {0, 12};
        assertFalse(EpochHistoryMatch.agree(ledInEpochOne, otherHistory), "offset 12 is epoch 2's, not epoch 1's");
        assertFalse(EpochHistoryMatch.agree(otherHistory, ledInEpochOne));
    }
}
