package io.sluice.log.clean;

import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.segment.BatchScanner;
import io.sluice.log.segment.CleanFaults;
import io.sluice.log.segment.CleanStep;
import io.sluice.log.segment.LogSegment;
import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.clean.BatchRebuilder;
import io.sluice.record.clean.DecodedBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cleans one log as Kafka's cleaner does. First the dirty section is read and the offset of the latest record of every
 * key goes into the {@link OffsetMap} (until it is full: the clean then ends where mapping stopped). Then every closed
 * segment below that end, clean ones included, is rewritten group by group (consecutive segments whose sizes together
 * fit one segment) into a new segment keeping only: records past the mapped end; records that are the latest of their
 * key, tombstones only until the delete horizon the cleaner wrote into their batch when it first kept them
 * (delete.retention.ms); control batches whole (Sluice has no transactions, so no transaction marker is ever removed
 * and no aborted batch is ever skipped); and the header of the last batch of each idempotent producer, even with all
 * its records gone. Offsets never change. Each group is swapped in by {@link PartitionLog#replaceSegments}.
 *
 * <p>Not thread-safe; one per cleaner thread ({@link #lastClean()} may be read from any thread).
 */
final class Cleaner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Cleaner.class);

    private final OffsetMap map;
    private final DecodedBatch decoded;
    private final BatchRebuilder rebuilder = new BatchRebuilder();
    private final SegmentBatchReader reader;
    private final BatchScanner scanner = new BatchScanner();
    private final IoThrottle throttle;
    private final CleanFaults faults;
    private final int ioBufferSize;
    private final RecordBatchView outView = new RecordBatchView();
    private ByteBuffer out;
    private int[] kept = new int[64];
    private final CleanerStats stats;
    private long runBytesRead;
    private long runBytesWritten;
    private volatile LastClean lastClean = LastClean.NONE;

    /**
     * What the last completed clean of this cleaner did, for Kafka's LogCleaner gauges.
     *
     * @param bufferUtilization share of the offset map's slots its keys took (0 to 1)
     * @param bytesRead         bytes of batches read while rewriting segments
     * @param bytesWritten      bytes written into cleaned segments
     * @param elapsedNanos      from the start of mapping to the last swap
     */
    record LastClean(double bufferUtilization, long bytesRead, long bytesWritten, long elapsedNanos) {
        static final LastClean NONE = new LastClean(0, 0, 0, 0);
    }

    Cleaner(CleanerConfig config, IoThrottle throttle, CleanFaults faults, CleanerStats stats) {
        this.map = new OffsetMap(config.mapBytesPerThread(), config.ioBufferLoadFactor());
        this.decoded = new DecodedBatch(Integer.MAX_VALUE - 8);
        this.reader = new SegmentBatchReader(config.ioBufferSize(), throttle);
        this.throttle = throttle;
        this.faults = faults;
        this.ioBufferSize = config.ioBufferSize();
        this.out = ByteBuffer.allocateDirect(config.ioBufferSize());
        this.stats = stats;
    }

    /**
     * Cleans {@code target}.
     *
     * @param abort polled between batches; true stops the clean before its next swap
     * @return the new first dirty offset (the end of the mapped section), or -1 when nothing below the first
     *         uncleanable offset could be mapped (nothing was cleaned)
     * @throws CleanAbortedException when aborted or when the log changed under the clean
     */
    long clean(LogToClean target, long nowMs, BooleanSupplier abort) throws IOException {
        long startNanos = System.nanoTime();
        runBytesRead = 0;
        runBytesWritten = 0;
        PartitionLog log = target.log();
        long end = buildOffsetMap(target, abort);
        if (end <= target.firstDirtyOffset()) {
            return -1;
        }
        double utilization = map.utilization();
        Map<Long, Long> lastBatches = log.lastBatchOffsetsOfProducers();
        LogSegment[] chain = target.chain();
        List<LogSegment> cleanable = new ArrayList<>();
        for (int i = 0; i < chain.length - 1 && chain[i].baseOffset() < end; i++) {
            cleanable.add(chain[i]);
        }
        for (LogSegment[] group : groups(cleanable, log.config(), target.firstUncleanableOffset())) {
            cleanGroup(log, group, nowMs, lastBatches, abort);
        }
        reader.trim(ioBufferSize);
        decoded.trim(ioBufferSize * 4);
        rebuilder.trim(ioBufferSize * 4);
        lastClean = new LastClean(utilization, runBytesRead, runBytesWritten, System.nanoTime() - startNanos);
        return end;
    }

    /** The last completed clean's figures ({@link LastClean#NONE} before the first). */
    LastClean lastClean() {
        return lastClean;
    }

    private long buildOffsetMap(LogToClean target, BooleanSupplier abort) throws IOException {
        map.clear();
        long start = target.firstDirtyOffset();
        long end = target.firstUncleanableOffset();
        LogSegment[] chain = target.chain();
        boolean sawBatch = false;
        mapping:
        for (int i = 0; i < chain.length - 1 && chain[i].baseOffset() < end; i++) {
            if (chain[i + 1].baseOffset() <= start) {
                continue;
            }
            long from = chain[i].findBatchPosition(start, scanner);
            if (from < 0) {
                continue;
            }
            reader.open(chain[i], from, chain[i].size());
            RecordBatchView batch;
            while ((batch = reader.next()) != null) {
                checkAbort(abort, target);
                if (batch.lastOffset() >= end) {
                    break mapping;
                }
                sawBatch = true;
                if (!batch.isControl() && !mapKeys(batch, start)) {
                    break mapping;
                }
                map.latestOffset(batch.lastOffset());
            }
        }
        if (sawBatch && map.latestOffset() < start) {
            throw new IOException(
                    "the offset map of " + map.maxEntries() + " keys cannot hold the keys of one batch of "
                            + target.key() + " at offset " + start + "; raise log.cleaner.dedupe.buffer.size");
        }
        stats.mapped(map.size());
        return map.latestOffset() < start ? start : map.latestOffset() + 1;
    }

    /** Puts the batch's keys at or after {@code start}; false when the map filled up first. */
    private boolean mapKeys(RecordBatchView batch, long start) {
        int n = decode(batch);
        ByteBuffer records = decoded.records();
        for (int r = 0; r < n; r++) {
            if (decoded.keyLength(r) >= 0
                    && decoded.offset(r) >= start
                    && !map.put(records, decoded.keyPosition(r), decoded.keyLength(r), decoded.offset(r))) {
                return false;
            }
        }
        return true;
    }

    private int decode(RecordBatchView batch) {
        try {
            return decoded.decode(batch);
        } catch (BatchFormatException e) {
            LOG.warn("cleaner keeps an unreadable batch at offset {} as it is: {}", batch.baseOffset(), e.getMessage());
            return -1;
        }
    }

    /** Kafka's groupSegmentsBySize: consecutive segments within one segment's size, index size and offset range. */
    static List<LogSegment[]> groups(List<LogSegment> segments, LogConfig config, long firstUncleanable) {
        List<LogSegment[]> groups = new ArrayList<>();
        int i = 0;
        while (i < segments.size()) {
            int from = i;
            long bytes = segments.get(i).size();
            long indexBytes = segments.get(i).indexBytes();
            i++;
            while (i < segments.size()) {
                LogSegment next = segments.get(i);
                long nextEnd = i + 1 < segments.size()
                        ? segments.get(i + 1).baseOffset()
                        : Math.min(next.nextOffset(), firstUncleanable);
                if (bytes + next.size() > config.segmentBytes()
                        || indexBytes + next.indexBytes() > config.maxIndexSizeBytes()
                        || next.size() > 0 && nextEnd - 1 - segments.get(from).baseOffset() > Integer.MAX_VALUE) {
                    break;
                }
                bytes += next.size();
                indexBytes += next.indexBytes();
                i++;
            }
            groups.add(segments.subList(from, i).toArray(new LogSegment[0]));
        }
        return groups;
    }

    private void cleanGroup(
            PartitionLog log, LogSegment[] group, long nowMs, Map<Long, Long> lastBatches, BooleanSupplier abort)
            throws IOException {
        LogConfig config = log.config();
        int[] sizes = new int[group.length];
        for (int i = 0; i < group.length; i++) {
            sizes[i] = group[i].size();
        }
        LogSegment cleaned = LogSegment.createCleaned(
                log.dir(), group[0].baseOffset(), config.indexIntervalBytes(), config.maxIndexSizeBytes(), nowMs);
        boolean handedOver = false;
        try {
            long lastModified = 0;
            for (int i = 0; i < group.length; i++) {
                reader.open(group[i], 0, sizes[i]);
                RecordBatchView batch;
                while ((batch = reader.next()) != null) {
                    checkAbort(abort, log);
                    filterInto(cleaned, batch, nowMs, config.deleteRetentionMs(), lastBatches);
                }
                lastModified = Math.max(lastModified, group[i].lastModifiedMs());
                flushOut(cleaned);
                faults.reached(CleanStep.CLEANED_PARTIAL);
            }
            cleaned.onBecomeInactive();
            cleaned.flush();
            cleaned.lastModifiedMs(lastModified);
            faults.reached(CleanStep.CLEANED_WRITTEN);
            checkAbort(abort, log);
            handedOver = true;
            if (!log.replaceSegments(group, sizes, cleaned, faults)) {
                cleaned.closeAndDelete();
                throw new CleanAbortedException(log.name() + " changed while its segments were cleaned");
            }
            stats.swapped(group.length);
        } catch (IOException | RuntimeException e) {
            if (!handedOver) {
                cleaned.closeAndDelete();
            }
            throw e;
        }
    }

    private void filterInto(
            LogSegment cleaned, RecordBatchView batch, long nowMs, long deleteRetentionMs, Map<Long, Long> lastBatches)
            throws IOException {
        stats.read(batch.sizeInBytes());
        runBytesRead += batch.sizeInBytes();
        int n = batch.isControl() ? -1 : decode(batch);
        if (n < 0) {
            write(cleaned, batch.buffer(), batch.offset(), batch.sizeInBytes());
            return;
        }
        boolean retainDeletes = !batch.hasDeleteHorizon() || nowMs < batch.baseTimestamp();
        if (kept.length < n) {
            kept = Arrays.copyOf(kept, Math.max(n, 2 * kept.length));
        }
        ByteBuffer records = decoded.records();
        int keptCount = 0;
        boolean tombstones = false;
        for (int r = 0; r < n; r++) {
            long offset = decoded.offset(r);
            boolean keep;
            if (offset > map.latestOffset()) {
                keep = true;
            } else if (decoded.keyLength(r) < 0) {
                keep = false;
            } else {
                long latest = map.get(records, decoded.keyPosition(r), decoded.keyLength(r));
                keep = offset >= latest && (decoded.hasValue(r) || retainDeletes);
            }
            if (keep) {
                kept[keptCount++] = r;
                tombstones |= !decoded.hasValue(r);
            }
        }
        stats.removed(n - keptCount);
        boolean setHorizon = tombstones && !batch.hasDeleteHorizon();
        if (keptCount == n && !setHorizon) {
            write(cleaned, batch.buffer(), batch.offset(), batch.sizeInBytes());
        } else if (keptCount > 0) {
            ByteBuffer rebuilt = rebuilder.rebuild(
                    batch, decoded, kept, keptCount, setHorizon ? saturatedAdd(nowMs, deleteRetentionMs) : -1);
            write(cleaned, rebuilt, 0, rebuilt.limit());
        } else if (batch.producerId() >= 0
                && Long.valueOf(batch.lastOffset()).equals(lastBatches.get(batch.producerId()))) {
            ByteBuffer empty = rebuilder.emptyHeader(batch);
            write(cleaned, empty, 0, empty.limit());
        }
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    private void write(LogSegment cleaned, ByteBuffer source, int from, int length) throws IOException {
        if (out.remaining() < length) {
            flushOut(cleaned);
            if (out.capacity() < length) {
                out = ByteBuffer.allocateDirect(length);
            }
        }
        out.put(out.position(), source, from, length);
        out.position(out.position() + length);
    }

    private void flushOut(LogSegment cleaned) throws IOException {
        out.flip();
        int bytes = out.remaining();
        if (bytes > 0) {
            cleaned.append(out, outView);
            throttle.acquire(bytes);
            stats.written(bytes);
            runBytesWritten += bytes;
        }
        if (out.capacity() > ioBufferSize) {
            out = ByteBuffer.allocateDirect(ioBufferSize);
        } else {
            out.clear();
        }
    }

    private static void checkAbort(BooleanSupplier abort, Object what) {
        if (abort.getAsBoolean()) {
            throw new CleanAbortedException("cleaning of " + what + " aborted");
        }
    }

    /** Keys the map may hold per clean. */
    int mapCapacity() {
        return map.maxEntries();
    }

    @Override
    public void close() {
        decoded.close();
    }
}
