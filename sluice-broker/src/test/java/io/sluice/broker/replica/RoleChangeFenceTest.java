package io.sluice.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.cluster.state.PartitionState;
import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A role change for a partition is fenced against the appends of the role before it (Kafka's leaderIsrUpdateLock): a
 * follower fetch checked in one leader epoch appends nothing once the broker leads or follows in the next, so the new
 * epoch's start in the epoch cache is never followed by old-epoch batches.
 */
class RoleChangeFenceTest {
    private static final int SELF = 2;
    private static final int LEADER = 1;
    private static final int[] REPLICAS = {1, 2};

    @TempDir
    Path dir;

    private PartitionLog log;
    private Partition partition;

    @BeforeEach
    void followInEpoch3AtOffset2() throws Exception {
        log = PartitionLog.open(dir.resolve("t-0"), LogConfig.builder().build(), new RecoveryReport());
        TopicInfo topic = new TopicInfo("t", Uuid.randomUuid(), 1, Map.of());
        partition = new Partition(
                topic,
                0,
                log,
                TopicConfigs.resolve(BrokerConfig.fromMap(Map.of()), Map.of()),
                new PartitionState(REPLICAS, LEADER, 3, REPLICAS),
                SELF,
                0);
        partition.assign(new PartitionState(REPLICAS, LEADER, 3, REPLICAS), 0);
        log.appendAsFollower(batch(0, 3, "a", "b"));
    }

    @AfterEach
    void close() throws Exception {
        log.close();
    }

    private static ByteBuffer batch(long baseOffset, int epoch, String... values) {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(values[i].getBytes(StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(baseOffset, Compression.NONE, epoch, records)
                .buffer();
    }

    private static FetchResponseData.PartitionData answer(ByteBuffer records) {
        return new FetchResponseData.PartitionData()
                .setErrorCode(Errors.NONE.code())
                .setHighWatermark(2)
                .setLogStartOffset(0)
                .setRecords(MemoryRecords.readableRecords(records));
    }

    private void assign(int leader, int leaderEpoch) {
        try {
            partition.assign(new PartitionState(REPLICAS, leader, leaderEpoch, REPLICAS), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void shouldNotAppendAFetchCheckedInTheOldEpochOnceThisBrokerLeadsTheNext() {
        FollowerAppender appender = new FollowerAppender(() -> assign(SELF, 4));

        assertTrue(appender.apply(partition, 3, answer(batch(2, 3, "c", "d", "e"))));

        assertEquals(2, log.logEndOffset(), "the epoch-3 batch fetched before the role change is dropped");
        assertEquals(4, log.latestEpoch());
        assertEquals(2, log.endOffsetForEpoch(3).endOffset(), "epoch 4 starts where epoch 3's data ends");
    }

    @Test
    void shouldNotAppendAFetchCheckedInTheOldEpochOnceThisBrokerFollowsTheNext() {
        FollowerAppender appender = new FollowerAppender(() -> assign(LEADER, 4));

        assertTrue(appender.apply(partition, 3, answer(batch(2, 3, "c"))));

        assertEquals(2, log.logEndOffset(), "a batch fetched in epoch 3 is not taken after following in epoch 4");
    }

    @Test
    void shouldNotTruncateForADivergenceCheckedInTheOldEpochOnceThisBrokerLeadsTheNext() {
        FollowerAppender appender = new FollowerAppender(() -> assign(SELF, 4));
        FetchResponseData.PartitionData diverging = answer(ByteBuffer.allocate(0));
        diverging.divergingEpoch().setEpoch(3).setEndOffset(0);

        assertTrue(appender.apply(partition, 3, diverging));

        assertEquals(2, log.logEndOffset(), "the new leader's log is not truncated by its old leader's answer");
    }

    @Test
    void shouldRefuseALeaderAppendInAnEpochThisBrokerNoLongerLeads() throws Exception {
        assign(SELF, 4);
        int epochSeenByProduce = partition.leaderEpoch();
        assign(LEADER, 5);

        assertThrows(
                NotLeaderOrFollowerException.class,
                () -> partition.appendAsLeader(batch(0, -1, "late"), epochSeenByProduce, 0));
        assertEquals(2, log.logEndOffset(), "nothing appended on a follower");

        assign(SELF, 6);
        assertThrows(
                NotLeaderOrFollowerException.class,
                () -> partition.appendAsLeader(batch(0, -1, "stale"), epochSeenByProduce, 0));
        assertEquals(2, log.logEndOffset(), "nothing stamped with an epoch that is over");

        partition.appendAsLeader(batch(0, -1, "now"), 6, 0);
        assertEquals(3, log.logEndOffset());
        assertEquals(6, log.latestEpoch());
    }
}
