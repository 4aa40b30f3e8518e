package io.sluice.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.segment.BatchStreamCheck;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.segment.SegmentFileNames;
import io.sluice.log.segment.SegmentIndexBuilder;
import io.sluice.record.batch.RecordBatchDescriptor;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterTry;
import net.jqwik.api.lifecycle.BeforeTry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SegmentIndexBuilder} fed by a {@link BatchStreamCheck}: a segment received in runs of any size, its checked
 * batches drained at any points, gets index files byte-identical to those {@link LogSegment} writes when it appends
 * the same batches, so an installed staged segment needs no rebuild.
 */
class SegmentIndexBuilderTest {
    private static final long BASE = 500;
    private static final int MAX_INDEX_BYTES = 1024 * 1024;

    private Path root;

    @BeforeTry
    void createDir() throws IOException {
        root = Files.createTempDirectory("segment-index-builder");
    }

    @AfterTry
    void deleteDir() throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** {@code count} batches of varying size and timestamps (not monotonic), offsets from {@link #BASE} on. */
    private static ByteBuffer batches(Random random, int count) {
        ByteBuffer[] batches = new ByteBuffer[count];
        long offset = BASE;
        for (int i = 0; i < count; i++) {
            int records = 1 + random.nextInt(4);
            ByteBuffer b = TestBatches.batch(10_000L + random.nextInt(5_000), records, 10 + random.nextInt(300));
            b.putLong(RecordBatchDescriptor.BASE_OFFSET_OFFSET, offset);
            offset += records;
            batches[i] = b;
        }
        return TestBatches.concat(batches);
    }

    private static long lastOffsetOf(ByteBuffer bytes) {
        RecordBatchView view = new RecordBatchView();
        long last = -1;
        for (int p = bytes.position(); p < bytes.limit(); p += view.sizeInBytes()) {
            view.wrap(bytes, p);
            last = view.lastOffset();
        }
        return last;
    }

    @Property(tries = 60)
    void shouldWriteTheIndexesAnAppendingSegmentWrites(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 4000) int maxRun,
            @ForAll @IntRange(min = 0, max = 2000) int indexIntervalBytes)
            throws IOException {
        Random random = new Random(seed);
        ByteBuffer bytes = batches(random, 1 + random.nextInt(40));
        Path appended = Files.createDirectories(root.resolve("appended"));
        LogSegment segment = LogSegment.create(appended, BASE, indexIntervalBytes, MAX_INDEX_BYTES, 0);
        try {
            segment.append(bytes.duplicate(), new RecordBatchView());
            segment.flush();
        } finally {
            segment.close();
        }

        Path received = Files.createDirectories(root.resolve("received"));
        SegmentIndexBuilder builder = SegmentIndexBuilder.start(received, BASE, indexIntervalBytes, MAX_INDEX_BYTES);
        BatchStreamCheck check = new BatchStreamCheck(bytes.remaining(), lastOffsetOf(bytes)).restart(0, BASE);
        for (int at = 0; at < bytes.remaining(); ) {
            int n = Math.min(bytes.remaining() - at, 1 + random.nextInt(maxRun));
            check.accept(bytes.duplicate().position(at).limit(at + n));
            at += n;
            if (random.nextInt(3) == 0) {
                check.drainChecked(builder);
            }
        }
        assertTrue(check.completeAndWhole(), check.endProblem());
        check.drainChecked(builder);
        builder.persist();

        assertEquals(bytes.remaining(), builder.nextPosition());
        assertArrayEquals(
                Files.readAllBytes(SegmentFileNames.indexFile(appended, BASE)),
                Files.readAllBytes(SegmentFileNames.indexFile(received, BASE)),
                "offset index");
        assertArrayEquals(
                Files.readAllBytes(SegmentFileNames.timeIndexFile(appended, BASE)),
                Files.readAllBytes(SegmentFileNames.timeIndexFile(received, BASE)),
                "time index");
    }

    @Test
    void shouldForgetCheckedBatchesNotDrainedBeforeARestart(@TempDir Path dir) throws IOException {
        ByteBuffer bytes = batches(new Random(7), 6);
        BatchStreamCheck check = new BatchStreamCheck(bytes.remaining(), lastOffsetOf(bytes)).restart(0, BASE);
        check.accept(bytes.duplicate());
        check.restart(0, BASE);
        SegmentIndexBuilder builder = SegmentIndexBuilder.start(dir, BASE, 0, MAX_INDEX_BYTES);
        check.drainChecked(builder);
        assertEquals(0, builder.nextPosition(), "nothing handed on after the restart");

        check.accept(bytes.duplicate());
        check.drainChecked(builder);
        assertEquals(bytes.remaining(), builder.nextPosition());
    }

    @Test
    void shouldRefuseABatchThatDoesNotFollowTheLastOne(@TempDir Path dir) throws IOException {
        SegmentIndexBuilder builder = SegmentIndexBuilder.start(dir, BASE, 0, MAX_INDEX_BYTES);
        builder.checked(0, 100, BASE, 1_000);
        assertThrows(IllegalArgumentException.class, () -> builder.checked(200, 100, BASE + 1, 1_000));
        assertThrows(IllegalArgumentException.class, () -> builder.checked(0, 100, BASE + 1, 1_000));
    }
}
