package io.sluice.log.segment;

import static io.sluice.record.batch.RecordBatchDescriptor.NO_TIMESTAMP;

import io.sluice.log.index.OffsetIndex;
import io.sluice.log.index.TimeIndex;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Builds the offset and time index files of a segment whose {@code .log} is written by someone else (a partition move
 * receiving it chunk by chunk), from its batches handed in file order: the same entries {@link LogSegment} makes when
 * it appends or recovers the same batches (an offset entry and a time entry once more than {@code index.interval.bytes}
 * have passed since the last one), so the installed segment opens without reading its file again.
 *
 * <p>Not thread-safe: batches are handed in by one thread; {@link #persist()} may run on another thread once the
 * last batch was handed in, after a happens-before edge (an executor hand-off).
 */
public final class SegmentIndexBuilder implements BatchStreamCheck.CheckedBatchSink {
    private final OffsetIndex offsetIndex;
    private final TimeIndex timeIndex;
    private final int indexIntervalBytes;
    private long maxTimestamp = NO_TIMESTAMP;
    private long offsetOfMaxTimestamp = -1;
    private long bytesSinceLastIndexEntry;
    private long nextPosition;

    private SegmentIndexBuilder(OffsetIndex offsetIndex, TimeIndex timeIndex, int indexIntervalBytes) {
        this.offsetIndex = offsetIndex;
        this.timeIndex = timeIndex;
        this.indexIntervalBytes = indexIntervalBytes;
    }

    /**
     * Starts empty indexes for the segment at {@code baseOffset} in {@code dir}; existing index files there are
     * deleted now and written on {@link #persist()}.
     */
    public static SegmentIndexBuilder start(Path dir, long baseOffset, int indexIntervalBytes, int maxIndexSizeBytes)
            throws IOException {
        return new SegmentIndexBuilder(
                OffsetIndex.empty(SegmentFileNames.indexFile(dir, baseOffset), baseOffset, maxIndexSizeBytes),
                TimeIndex.empty(SegmentFileNames.timeIndexFile(dir, baseOffset), baseOffset, maxIndexSizeBytes),
                indexIntervalBytes);
    }

    /**
     * The next batch of the file, which must start where the previous one ended.
     *
     * @throws IllegalArgumentException when it does not (a batch skipped or handed in twice)
     */
    @Override
    public void checked(long position, int sizeInBytes, long lastOffset, long batchMaxTimestamp) {
        if (position != nextPosition) {
            throw new IllegalArgumentException(
                    "batch at position " + position + " handed in, the next one starts at " + nextPosition);
        }
        if (batchMaxTimestamp > maxTimestamp) {
            maxTimestamp = batchMaxTimestamp;
            offsetOfMaxTimestamp = lastOffset;
        }
        if (bytesSinceLastIndexEntry > indexIntervalBytes) {
            offsetIndex.append(lastOffset, (int) position);
            timeIndex.maybeAppend(maxTimestamp, offsetOfMaxTimestamp);
            bytesSinceLastIndexEntry = 0;
        }
        bytesSinceLastIndexEntry += sizeInBytes;
        nextPosition = position + sizeInBytes;
    }

    /** File position just after the last batch handed in. */
    public long nextPosition() {
        return nextPosition;
    }

    /** Writes both index files and fsyncs them. */
    public void persist() throws IOException {
        offsetIndex.persist();
        timeIndex.persist();
    }
}
