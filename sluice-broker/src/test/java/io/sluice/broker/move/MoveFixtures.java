package io.sluice.broker.move;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.config.MoveConfig;
import io.sluice.broker.network.ApiRegistry;
import io.sluice.broker.network.MoveSourceHandler;
import io.sluice.broker.network.NetworkServer;
import io.sluice.broker.security.ListenerSecurity;
import io.sluice.broker.security.SaslApis;
import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import io.sluice.log.segment.BatchScanner;
import io.sluice.log.segment.LogSegment;
import io.sluice.log.segment.SegmentFileNames;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;

/** Source logs with real batches, and source brokers on real loopback sockets. Not thread-safe. */
final class MoveFixtures {
    static final String TOPIC = "orders";
    static final int PARTITION = 3;
    static final int LEADER_EPOCH = 2;
    static final long START_MS = 1_700_000_000_000L;
    static final int CHUNK_BYTES = 4096;
    static final long PRODUCER_A = 7L;
    static final long PRODUCER_B = 8L;

    private MoveFixtures() {}

    static LogConfig smallSegments() {
        return LogConfig.builder()
                .segmentBytes(8 * 1024)
                .indexIntervalBytes(512)
                .fileDeleteDelayMs(0)
                .build();
    }

    static MoveConfig moveConfig() {
        return MoveConfig.defaults().withChunkBytes(CHUNK_BYTES).withRetryBackoffMs(0);
    }

    /**
     * A transfer client that writes through the disk and the page cache at once, with a disk window of one byte: the
     * disk's lane is asked for only when it has nothing outstanding, so most files go through the page cache.
     */
    static MoveTransferClient twoLaneClient(ChunkFaultHook hook) {
        MoveTransferClient client =
                new MoveTransferClient(moveConfig().withPageCacheSpillEnable(true), ByteRateLimiter.UNLIMITED);
        client.diskWindowBytes(1);
        client.faults(hook);
        return client;
    }

    static PartitionLog openLog(Path dir) throws IOException {
        return PartitionLog.open(dir, smallSegments(), new RecoveryReport(), 0L, 0L, () -> START_MS);
    }

    /**
     * A log of ~25 segments (~200 KB) over three leader epochs: uncompressed, gzip, lz4 and zstd batches and two idempotent
     * producers; the active segment holds plain batches only. The same calls give byte-identical logs.
     */
    static PartitionLog sourceLog(Path dir) throws Exception {
        PartitionLog log = openLog(dir);
        long ts = START_MS;
        for (int i = 0; i < 60; i++) {
            log.appendAsLeader(batch(Compression.NONE, ts + i, 5, 100), 0, ts);
        }
        log.assignLeaderEpoch(1);
        Compression[] codecs = {
            Compression.gzip().build(),
            Compression.lz4().build(),
            Compression.zstd().build()
        };
        for (int i = 0; i < 60; i++) {
            log.appendAsLeader(batch(codecs[i % 3], ts + 100 + i, 20, 80), 1, ts);
            log.appendAsLeader(idempotent(PRODUCER_A, i * 3, 3, ts + 100 + i), 1, ts);
        }
        log.assignLeaderEpoch(LEADER_EPOCH);
        for (int i = 0; i < 10; i++) {
            log.appendAsLeader(idempotent(PRODUCER_B, i * 2, 2, ts + 200 + i), LEADER_EPOCH, ts);
            log.appendAsLeader(batch(Compression.NONE, ts + 200 + i, 4, 200), LEADER_EPOCH, ts);
        }
        // fill until a roll leaves the idempotent batches in closed segments and the active one plain
        long segments = log.segmentCount();
        while (log.segmentCount() == segments) {
            log.appendAsLeader(batch(Compression.NONE, ts + 300, 4, 200), LEADER_EPOCH, ts);
        }
        log.appendAsLeader(batch(Compression.NONE, ts + 301, 4, 200), LEADER_EPOCH, ts);
        return log;
    }

    static ByteBuffer batch(Compression compression, long timestamp, int records, int valueBytes) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(
                ByteBuffer.allocate(records * (valueBytes + 64) + 256),
                RecordBatch.CURRENT_MAGIC_VALUE,
                compression,
                TimestampType.CREATE_TIME,
                0L);
        SplittableRandom random = new SplittableRandom(timestamp * 31 + records);
        for (int r = 0; r < records; r++) {
            byte[] value = new byte[valueBytes];
            for (int b = 0; b < valueBytes; b++) {
                value[b] = (byte) ('a' + random.nextInt(26));
            }
            builder.append(timestamp, null, value);
        }
        return builder.build().buffer();
    }

    static ByteBuffer idempotent(long producerId, int baseSequence, int records, long timestamp) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(
                ByteBuffer.allocate(1024),
                RecordBatch.CURRENT_MAGIC_VALUE,
                Compression.NONE,
                TimestampType.CREATE_TIME,
                0L,
                timestamp,
                producerId,
                (short) 0,
                baseSequence,
                false,
                RecordBatch.NO_PARTITION_LEADER_EPOCH);
        for (int r = 0; r < records; r++) {
            builder.append(
                    timestamp, null, ("p" + producerId + "s" + (baseSequence + r)).getBytes(StandardCharsets.UTF_8));
        }
        return builder.build().buffer();
    }

    /** Asserts that every closed segment of {@code source} below the boundary is byte-identical in {@code target}. */
    static void assertSegmentsIdentical(PartitionLog source, PartitionLog target, long boundary) throws IOException {
        long[] bases = source.segmentBaseOffsets();
        int compared = 0;
        for (long base : bases) {
            if (base >= boundary) {
                continue;
            }
            Path name = Path.of(String.format(Locale.ROOT, "%020d.log", base));
            assertEquals(
                    -1L,
                    Files.mismatch(source.dir().resolve(name), target.dir().resolve(name)),
                    "segment " + name + " differs");
            assertIndexedAsRecovered(target, base);
            compared++;
        }
        assertEquals(compared + 1, target.segmentCount(), "installed segments plus the new active one");
    }

    /**
     * The installed segment's index files (written as its chunks landed) are the ones the log's own recovery builds
     * from a copy of its {@code .log}.
     */
    private static void assertIndexedAsRecovered(PartitionLog target, long base) throws IOException {
        Path copy = Files.createTempDirectory(target.dir().getParent(), "recovered");
        Files.copy(SegmentFileNames.logFile(target.dir(), base), SegmentFileNames.logFile(copy, base));
        LogSegment recovered = LogSegment.openExisting(
                copy,
                base,
                target.config().indexIntervalBytes(),
                target.config().maxIndexSizeBytes());
        try {
            assertEquals(null, recovered.recover(new BatchScanner(), true).problem());
        } finally {
            recovered.close();
        }
        for (Path index :
                new Path[] {SegmentFileNames.indexFile(copy, base), SegmentFileNames.timeIndexFile(copy, base)}) {
            Path installed = target.dir().resolve(index.getFileName());
            assertEquals(-1L, Files.mismatch(index, installed), installed + " differs from the recovered index");
            Files.delete(index);
        }
        Files.delete(SegmentFileNames.logFile(copy, base));
        Files.delete(copy);
    }

    /** A source broker: the move handler behind a real Kafka listener on 127.0.0.1. */
    static final class Source implements AutoCloseable {
        final MoveSource source;
        final NetworkServer server;
        final AtomicLong clock;

        Source(PartitionLog log, MoveConfig config, AtomicLong clock) throws InterruptedException {
            this(log, config, clock, ListenerSecurity.plaintext("PLAINTEXT"));
        }

        /** A source behind a listener secured by {@code security} (TLS and/or SASL). */
        Source(PartitionLog log, MoveConfig config, AtomicLong clock, ListenerSecurity security)
                throws InterruptedException {
            this(log, config, clock, security, ByteRateLimiter.UNLIMITED);
        }

        /** A source whose answers {@code limiter} throttles (Kafka's leader throttle). */
        Source(
                PartitionLog log,
                MoveConfig config,
                AtomicLong clock,
                ListenerSecurity security,
                ByteRateLimiter limiter)
                throws InterruptedException {
            this.clock = clock;
            LongSupplier now = clock::get;
            this.source = new MoveSource(
                    (topic, partition) -> TOPIC.equals(topic) && partition == PARTITION
                            ? new MoveSourceLogs.Hosted(log, LEADER_EPOCH, log.logEndOffset())
                            : null,
                    config,
                    limiter,
                    now);
            ApiRegistry registry =
                    new ApiRegistry().registerPrivate(MoveFrameDescriptor.API_KEY, new MoveSourceHandler(source));
            SaslApis.register(registry);
            this.server = NetworkServer.start(
                    new NetworkServer.Settings("127.0.0.1", 0, 1, 1, 1 << 20, 0, 0, 0, security), registry);
        }

        static Source start(PartitionLog log) throws InterruptedException {
            return new Source(log, moveConfig(), new AtomicLong(START_MS));
        }

        InetSocketAddress address() {
            return server.boundAddress();
        }

        @Override
        public void close() {
            server.close();
            source.close();
        }
    }

    /** Thrown by a fault hook to stop the target as a crash would: no cleanup runs for an Error. */
    static final class SimulatedCrash extends Error {
        private static final long serialVersionUID = 1L;

        SimulatedCrash() {
            super("simulated target crash");
        }
    }
}
