package io.sluice.bench.clean;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import kafka.log.Cleaner;
import kafka.log.CleanerStats;
import kafka.log.LogToClean;
import kafka.log.UnifiedLog;
import kafka.server.BrokerTopicStats;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.log.CleanerConfig;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.LogOffsetsListener;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.apache.kafka.storage.internals.log.SkimpyOffsetMap;
import org.apache.kafka.storage.internals.utils.Throttler;
import scala.Option;
import scala.Tuple2;
import scala.runtime.BoxedUnit;

/**
 * Apache Kafka 3.9's cleaner: a {@code kafka.log.Cleaner} built as {@code LogCleaner.CleanerThread} builds it from a
 * one-thread cleaner config (MD5 {@code SkimpyOffsetMap} of the whole dedupe buffer, I/O buffers of
 * log.cleaner.io.buffer.size / 2, growing up to message.max.bytes, no throttle), cleaning a {@code UnifiedLog} on the
 * calling thread with {@code Cleaner.clean}, as the thread does once it has chosen the log. Kafka's per-thread
 * bookkeeping around it (choosing the log, the cleaner-offset-checkpoint write) is not run.
 *
 * <p>Not thread-safe; used by the benchmark thread only.
 */
final class KafkaCleanerRig implements CleanerRig {
    private final Path root;
    private final LogConfig config;
    private final KafkaScheduler scheduler = new KafkaScheduler(1);
    private final BrokerTopicStats topicStats = new BrokerTopicStats(false);
    private final SkimpyOffsetMap offsetMap;
    private final Cleaner cleaner;
    private UnifiedLog log;
    private TopicPartition partition;
    private CleanerStats last;

    KafkaCleanerRig(Path root, int segmentBytes, long dedupeBufferBytes) throws NoSuchAlgorithmException {
        this.root = root;
        Properties props = new Properties();
        props.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        props.put(TopicConfig.SEGMENT_BYTES_CONFIG, Integer.toString(segmentBytes));
        props.put(TopicConfig.SEGMENT_MS_CONFIG, Long.toString(Long.MAX_VALUE));
        props.put(TopicConfig.RETENTION_MS_CONFIG, "-1");
        this.config = new LogConfig(props);
        CleanerConfig cleanerConfig = new CleanerConfig(
                1,
                dedupeBufferBytes,
                CleanerConfig.LOG_CLEANER_DEDUPE_BUFFER_LOAD_FACTOR,
                CleanerConfig.LOG_CLEANER_IO_BUFFER_SIZE,
                LogConfig.DEFAULT_MAX_MESSAGE_BYTES,
                CleanerConfig.LOG_CLEANER_IO_MAX_BYTES_PER_SECOND,
                CleanerConfig.LOG_CLEANER_BACKOFF_MS,
                true);
        this.offsetMap = new SkimpyOffsetMap(
                (int) Math.min(cleanerConfig.dedupeBufferSize / cleanerConfig.numThreads, Integer.MAX_VALUE),
                cleanerConfig.hashAlgorithm());
        Throttler throttler = new Throttler(cleanerConfig.maxIoBytesPerSecond, 300, "cleaner-io", "bytes", Time.SYSTEM);
        this.cleaner = new Cleaner(
                0,
                offsetMap,
                cleanerConfig.ioBufferSize / cleanerConfig.numThreads / 2,
                cleanerConfig.maxMessageSize,
                cleanerConfig.dedupeBufferLoadFactor,
                throttler,
                Time.SYSTEM,
                tp -> BoxedUnit.UNIT);
        scheduler.startup();
    }

    @Override
    public Path create(int n) {
        partition = new TopicPartition(LogCleanerBenchmark.TOPIC, n);
        File dir = root.resolve(partition.toString()).toFile();
        log = UnifiedLog.apply(
                dir,
                config,
                0L,
                0L,
                scheduler,
                topicStats,
                Time.SYSTEM,
                5 * 60 * 1000,
                new ProducerStateManagerConfig(24 * 60 * 60 * 1000, false),
                10 * 60 * 1000,
                new LogDirFailureChannel(1),
                true,
                Option.empty(),
                true,
                new ConcurrentHashMap<>(),
                false,
                LogOffsetsListener.NO_OP_OFFSETS_LISTENER);
        return dir.toPath();
    }

    @Override
    public void append(ByteBuffer batch) {
        log.appendAsFollower(MemoryRecords.readableRecords(batch), 0);
    }

    @Override
    public void flush() {
        log.flush(true);
    }

    @Override
    public long clean() {
        Tuple2<Object, CleanerStats> result = cleaner.clean(
                new LogToClean(partition, log, 0L, log.activeSegment().baseOffset(), false));
        last = result._2();
        return (Long) result._1();
    }

    @Override
    public String lastCleanStats() {
        return String.format(
                java.util.Locale.ROOT,
                "read %d B (map %d B), wrote %d B, records read %d, written %d, map %d slots %.0f%% used",
                last.bytesRead(),
                last.mapBytesRead(),
                last.bytesWritten(),
                last.messagesRead(),
                last.messagesWritten(),
                offsetMap.slots(),
                100 * last.bufferUtilization());
    }

    @Override
    public long[] cleanerThreadIds() {
        return new long[0];
    }

    /** The whole dedupe buffer, allocated on the heap when the cleaner is built, whatever the input. */
    @Override
    public long offsetMapBytes(DirtyLog input) {
        return (long) offsetMap.slots() * offsetMap.bytesPerEntry;
    }

    @Override
    public void deleteLog() throws IOException {
        log.close();
        Utils.delete(log.dir());
        log = null;
    }

    @Override
    public void close() throws Exception {
        scheduler.shutdown();
        topicStats.close();
    }
}
