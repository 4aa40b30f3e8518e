package io.sluice.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.ReplicationThrottles;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.cluster.state.PartitionState;
import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KIP-352's reassignment traffic as this broker counts it: what an adding replica receives (move chunks, follower
 * fetches) and what is sent to one (move chunks as source, fetch answers as leader); ordinary replication is not
 * counted. Partition 0 of "t" has replicas [1, 2, 3] with broker 3 being added.
 */
class ReassignmentTrafficTest {
    private static final PartitionState MOVING =
            new PartitionState(new int[] {1, 2, 3}, 1, 4, new int[] {1, 2}, 7, new int[] {3}, new int[] {2});

    @TempDir
    Path dir;

    private PartitionLog log;

    @BeforeEach
    void open() throws Exception {
        log = PartitionLog.open(dir.resolve("t-0"), LogConfig.builder().build(), new RecoveryReport());
    }

    @AfterEach
    void close() throws Exception {
        log.close();
    }

    private Partition partitionOn(int self) throws Exception {
        Partition partition = new Partition(
                new TopicInfo("t", Uuid.randomUuid(), 1, Map.of()),
                0,
                log,
                TopicConfigs.resolve(BrokerConfig.fromMap(Map.of()), Map.of()),
                MOVING,
                self,
                0);
        partition.assign(MOVING, 0);
        return partition;
    }

    @Test
    void shouldCountWhatTheAddingReplicaReceivesAndNotOrdinaryReplication() throws Exception {
        ReplicationThrottling adding = new ReplicationThrottling(3, new ReplicationThrottles());
        Partition onAdding = partitionOn(3);
        AtomicLong marked = new AtomicLong();
        adding.reassignmentTraffic().listen(marked::addAndGet, bytes -> {});

        adding.followerFetched(onAdding, 1_000);
        adding.moveReceiveLimiter(onAdding).reserveNanos(4_096);
        adding.followerFetched(onAdding, 0);

        assertEquals(5_096, adding.reassignmentTraffic().bytesIn());
        assertEquals(5_096, marked.get(), "the listener (a meter) saw every count");
        assertEquals(0, adding.reassignmentTraffic().bytesOut());

        ReplicationThrottling staying = new ReplicationThrottling(2, new ReplicationThrottles());
        staying.followerFetched(partitionOn(2), 1_000);
        assertEquals(0, staying.reassignmentTraffic().bytesIn(), "a follower that is not being added");
    }

    @Test
    void shouldCountWhatIsSentToTheAddingReplicaOnly() throws Exception {
        ReplicationThrottling leader = new ReplicationThrottling(1, new ReplicationThrottles());
        Partition onLeader = partitionOn(1);

        leader.leaderSent(onLeader, 3, 2_000);
        leader.leaderSent(onLeader, 2, 9_999);
        leader.moveSendLimiter("t", 0).reserveNanos(1_048_576);

        assertEquals(2_000 + 1_048_576, leader.reassignmentTraffic().bytesOut());
        assertEquals(0, leader.reassignmentTraffic().bytesIn());
    }
}
