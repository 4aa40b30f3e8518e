package io.sluice.bench.clean;

import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import io.sluice.log.TopicPartitionKey;
import io.sluice.log.clean.CleanerCheckpoints;
import io.sluice.log.clean.CleanerConfig;
import io.sluice.log.clean.CleanerStats;
import io.sluice.log.clean.LogCleaner;
import io.sluice.log.clean.OffsetMap;
import io.sluice.log.segment.CleanFaults;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sluice's cleaner as a broker runs it: a started {@link LogCleaner} with one thread ({@code sluice-log-cleaner-0},
 * which keeps its offset map and buffers from clean to clean) and the broker's defaults but for the dedupe buffer.
 * The log it sees is published only when {@link #clean()} is called, which wakes the thread and waits (parking
 * 0.1 ms at a time) until it has cleaned the log and written its checkpoint. Each invocation's log is a new
 * partition, so the previous checkpoint does not apply to it.
 *
 * <p>Not thread-safe; used by the benchmark thread only (the cleaner thread reads {@link #published}).
 */
final class SluiceCleanerRig implements CleanerRig {
    private static final long BACKOFF_MS = TimeUnit.HOURS.toMillis(1);
    private static final long CLEAN_TIMEOUT_NANOS = TimeUnit.MINUTES.toNanos(10);

    private final Path root;
    private final LogConfig config;
    private final long dedupeBufferBytes;
    private final LogCleaner cleaner;
    private final long cleanerThreadId;
    private volatile Map<TopicPartitionKey, PartitionLog> published = Map.of();
    private TopicPartitionKey key;
    private PartitionLog log;
    private String lastStats = "";

    SluiceCleanerRig(Path root, int segmentBytes, long dedupeBufferBytes) {
        this.root = root;
        this.dedupeBufferBytes = dedupeBufferBytes;
        this.config = LogConfig.builder()
                .compact(true)
                .segmentBytes(segmentBytes)
                .segmentMs(Long.MAX_VALUE)
                .retentionMs(-1)
                .build();
        CleanerConfig cleanerConfig = new CleanerConfig(
                true,
                1,
                dedupeBufferBytes,
                CleanerConfig.DEFAULT_IO_BUFFER_LOAD_FACTOR,
                CleanerConfig.DEFAULT_IO_BUFFER_SIZE,
                CleanerConfig.DEFAULT_IO_MAX_BYTES_PER_SECOND,
                BACKOFF_MS);
        this.cleaner = new LogCleaner(
                cleanerConfig,
                () -> published,
                k -> root,
                new CleanerCheckpoints(List.of(root), new RecoveryReport()),
                System::currentTimeMillis,
                CleanFaults.NONE);
        cleaner.start();
        this.cleanerThreadId = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("sluice-log-cleaner-0"))
                .findFirst()
                .orElseThrow()
                .getId();
    }

    @Override
    public Path create(int n) throws IOException {
        key = new TopicPartitionKey(LogCleanerBenchmark.TOPIC, n);
        Path dir = root.resolve(key.topic() + "-" + key.partition());
        log = PartitionLog.open(dir, config, new RecoveryReport());
        return dir;
    }

    @Override
    public void append(ByteBuffer batch) throws IOException {
        log.appendAsFollower(batch);
    }

    @Override
    public void flush() throws IOException {
        log.flush();
    }

    @Override
    public long clean() {
        CleanerStats stats = cleaner.stats();
        long cleans = stats.cleans();
        long read = stats.bytesRead();
        long written = stats.bytesWritten();
        long removed = stats.recordsRemoved();
        long mapped = stats.keysMapped();
        published = Map.of(key, log);
        long started = System.nanoTime();
        while (stats.cleans() == cleans) {
            if (System.nanoTime() - started > CLEAN_TIMEOUT_NANOS) {
                throw new IllegalStateException("the cleaner did not clean " + key + " within 10 minutes");
            }
            cleaner.wakeUp();
            LockSupport.parkNanos(100_000);
        }
        lastStats = String.format(
                java.util.Locale.ROOT,
                "read %d B (map reads not counted), wrote %d B, records removed %d, keys mapped %d",
                stats.bytesRead() - read,
                stats.bytesWritten() - written,
                stats.recordsRemoved() - removed,
                stats.keysMapped() - mapped);
        return cleaner.checkpoints().get(root, key);
    }

    @Override
    public String lastCleanStats() {
        return lastStats;
    }

    @Override
    public long[] cleanerThreadIds() {
        return new long[] {cleanerThreadId};
    }

    /**
     * The map grows with the keys it is given up to the dedupe buffer and keeps its arrays: replaying the input's
     * dirty keys into a map of the same bound gives the size the cleaner thread's map has after a clean of it.
     */
    @Override
    public long offsetMapBytes(DirtyLog input) {
        OffsetMap map = new OffsetMap(dedupeBufferBytes, CleanerConfig.DEFAULT_IO_BUFFER_LOAD_FACTOR);
        for (long offset = 0; offset < input.activeBase(); offset++) {
            byte[] key = input.keyBytes(offset);
            if (!map.put(ByteBuffer.wrap(key), 0, key.length, offset)) {
                throw new IllegalStateException("the dirty keys do not fit the offset map; raise dedupeMB");
            }
        }
        return map.memoryBytes();
    }

    @Override
    public void deleteLog() throws IOException {
        published = Map.of();
        cleaner.abortAndWait(log);
        log.deleteFiles();
        log = null;
    }

    @Override
    public void close() {
        cleaner.close();
    }
}
