package io.sluice.broker.move;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.LogConfig;
import io.sluice.log.segment.SegmentFileNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StagingArea#adopt}: a new source's listing that cannot be taken (a staged file it needs cannot be opened or
 * replaced) leaves none of the last listing's files open. A file left open would keep its pending writes going while
 * the next attempt opens the same file again: two writers on one staged file.
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
}
