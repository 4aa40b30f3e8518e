package io.sluice.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.BrokerConfigKeys;
import io.sluice.broker.config.MoveConfig;
import io.sluice.broker.config.ReplicationThrottles;
import io.sluice.broker.config.TopicConfigKeys;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.broker.move.MoveAnswer;
import io.sluice.broker.move.MoveSegmentList;
import io.sluice.broker.move.MoveSource;
import io.sluice.broker.move.MoveSourceLogs;
import io.sluice.broker.move.SourceCalls;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.cluster.state.PartitionState;
import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The move limiters the broker wires in report the throttle in force ({@code leader/follower.replication.throttled
 * .rate} for the replicas {@code *.replication.throttled.replicas} name), read at each chunk: by it the source cuts
 * a chunk to a second of the throttle, and the target asks for no more. Partition 0 of "t", broker 1 the source
 * and broker 3 the target.
 */
class MoveThrottleRateTest {
    private static final int SEGMENT_BYTES = 1024 * 1024;

    @TempDir
    Path dir;

    private PartitionLog log;
    private final ReplicationThrottles throttles = new ReplicationThrottles();

    @BeforeEach
    void open() throws Exception {
        log = PartitionLog.open(
                dir.resolve("t-0"),
                LogConfig.builder().segmentBytes(SEGMENT_BYTES).build(),
                new RecoveryReport());
    }

    @AfterEach
    void close() throws Exception {
        log.close();
    }

    private void throttle(String rateKey, long rate, String replicasKey, String replicas) {
        throttles.update(
                BrokerConfig.fromMap(Map.of(rateKey, Long.toString(rate))), Map.of("t", Map.of(replicasKey, replicas)));
    }

    @Test
    void shouldCutTheSourcesChunksToASecondOfTheLeaderThrottleInForce() throws Exception {
        while (log.segmentCount() < 3) {
            log.appendAsLeader(batchOf(64 * 1024), 0, Time.SYSTEM.milliseconds());
        }
        ReplicationThrottling throttling = new ReplicationThrottling(1, throttles);
        MoveSource source = new MoveSource(
                (topic, partition) -> new MoveSourceLogs.Hosted(log, 0, log.logEndOffset()),
                MoveConfig.defaults().withChunkBytes(SEGMENT_BYTES),
                throttling::moveSendLimiter,
                System::currentTimeMillis);
        SourceCalls target = new SourceCalls(source);
        MoveSegmentList listing = target.open(1, "t", 0, 0);
        assertTrue(listing.segmentCount() >= 2, listing.toString());
        long first = listing.segmentBaseOffsets[0];

        assertEquals(
                SEGMENT_BYTES / 2, target.chunk(1, first, 0, SEGMENT_BYTES / 2).length(), "not throttled");

        throttle(
                BrokerConfigKeys.LEADER_REPLICATION_THROTTLED_RATE,
                100_000,
                TopicConfigKeys.LEADER_REPLICATION_THROTTLED_REPLICAS,
                "0:1");
        MoveAnswer throttled = target.chunk(1, first, 0, SEGMENT_BYTES / 2);
        assertEquals(100_000, throttled.length(), "a second of the leader throttle");

        throttle(
                BrokerConfigKeys.LEADER_REPLICATION_THROTTLED_RATE,
                30_000,
                TopicConfigKeys.LEADER_REPLICATION_THROTTLED_REPLICAS,
                "*");
        assertEquals(30_000, target.chunk(1, first, 0, SEGMENT_BYTES / 2).length(), "the lowered throttle, at once");

        throttle(
                BrokerConfigKeys.LEADER_REPLICATION_THROTTLED_RATE,
                30_000,
                TopicConfigKeys.LEADER_REPLICATION_THROTTLED_REPLICAS,
                "0:2");
        assertEquals(
                SEGMENT_BYTES / 2,
                target.chunk(1, first, 0, SEGMENT_BYTES / 2).length(),
                "another broker's replica throttled, not this one's");
        source.close();
    }

    @Test
    void shouldReportTheFollowerThrottleInForceToTheTarget() throws Exception {
        PartitionState moving =
                new PartitionState(new int[] {1, 2, 3}, 1, 4, new int[] {1, 2}, 7, new int[] {3}, new int[] {2});
        Partition onTarget = new Partition(
                new TopicInfo("t", org.apache.kafka.common.Uuid.randomUuid(), 1, Map.of()),
                0,
                log,
                TopicConfigs.resolve(BrokerConfig.fromMap(Map.of()), Map.of()),
                moving,
                3,
                0);
        onTarget.assign(moving, 0);
        ReplicationThrottling throttling = new ReplicationThrottling(3, throttles);
        var limiter = throttling.moveReceiveLimiter(onTarget);
        assertEquals(Long.MAX_VALUE, limiter.bytesPerSecond());

        throttle(
                BrokerConfigKeys.FOLLOWER_REPLICATION_THROTTLED_RATE,
                200_000,
                TopicConfigKeys.FOLLOWER_REPLICATION_THROTTLED_REPLICAS,
                "0:3");
        assertEquals(200_000, limiter.bytesPerSecond(), "read at each chunk: the limiter was made before the change");

        throttle(
                BrokerConfigKeys.FOLLOWER_REPLICATION_THROTTLED_RATE,
                200_000,
                TopicConfigKeys.FOLLOWER_REPLICATION_THROTTLED_REPLICAS,
                "0:2");
        assertEquals(Long.MAX_VALUE, limiter.bytesPerSecond(), "another broker's replica throttled");
    }

    private static ByteBuffer batchOf(int valueBytes) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(
                ByteBuffer.allocate(valueBytes + 256),
                RecordBatch.CURRENT_MAGIC_VALUE,
                Compression.NONE,
                TimestampType.CREATE_TIME,
                0L);
        builder.append(Time.SYSTEM.milliseconds(), null, new byte[valueBytes]);
        return builder.build().buffer();
    }
}
