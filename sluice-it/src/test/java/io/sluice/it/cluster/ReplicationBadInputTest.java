package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.cluster.state.PartitionState;
import io.sluice.testkit.cluster.ProcessCluster;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AlterPartitionResponse;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forged replication requests against a three-broker cluster, answered with Kafka 3.9's error codes: Fetch with a
 * replica id that is not a follower of the partition, sent to a replica that does not lead, with older or newer
 * current leader epochs, with fetch offsets outside the log and with last fetched epochs that diverge or that the
 * leader cannot place; OffsetForLeaderEpoch with forged epochs; AlterPartition from a broker that does not lead, with
 * stale or future epochs, with a non-replica in the ISR, or sent to a broker that is not the controller. None of them
 * returns a record past the high watermark, none changes the published partition (leader, epochs, ISR), and after each
 * the cluster still takes acks=all writes and serves them.
 *
 * <p>The partition has replication factor 2 on 3 brokers, so one live broker is not a replica; it has batches of two
 * leader epochs (the first leader was stopped and came back as follower).
 */
class ReplicationBadInputTest {
    private static final String TOPIC = "forged";
    private static final int RECORDS_PER_EPOCH = 50;
    private static final int UNKNOWN_BROKER = 99;
    private static final int FAR = 1_000;
    /** Long enough that no test here sees a follower dropped from the ISR while the real one keeps fetching. */
    private static final int LAG_TIME_MS = 10_000;

    @TempDir
    static Path work;

    static ProcessCluster cluster;
    static ReplicatedPartition partition;
    /** Records acknowledged so far, all of which the partition must serve. */
    static final Map<String, KeyedRecords.Expected> ACKED = new LinkedHashMap<>();

    private PartitionState before;
    private int leader;
    private int follower;
    private int nonReplica;
    private Uuid topicId;

    @BeforeAll
    static void startClusterWithTwoEpochs() throws Exception {
        cluster = ProcessCluster.start(
                work,
                ClusterTestBase.BROKERS,
                ProcessCluster.TEST_SESSION_TIMEOUT,
                ClusterTestBase.replicationSettings(LAG_TIME_MS).toArray(new String[0]));
        partition = ReplicatedPartition.create(cluster, TOPIC, 2, Map.of());
        produce("epoch0");
        PartitionState first = partition.state();
        cluster.broker(first.leader()).stop();
        PartitionState second = partition.awaitNewLeader(first);
        produce("epoch" + second.leaderEpoch());
        cluster.broker(first.leader()).restart();
        partition.awaitFullIsrAfter(second);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
            cluster.keepLogs(ClusterClients.KEPT_LOGS, ReplicationBadInputTest.class.getSimpleName());
        }
    }

    @BeforeEach
    void roles() throws Exception {
        before = partition.awaitFullIsr();
        leader = before.leader();
        follower = partition.followers(before).get(0);
        nonReplica = cluster.brokerIds().stream()
                .filter(id -> !before.hasReplica(id))
                .findFirst()
                .orElseThrow();
        topicId = partition.topicId();
    }

    /** Whatever the test sent: the published partition is as it was, and acks=all writes are still served. */
    @AfterEach
    void partitionUnchangedAndStillServing() throws Exception {
        assertEquals(before, partition.state(), "published partition after forged requests");
        produce("after-" + ACKED.size());
        KeyedRecords.assertExactlyOnce(ACKED, partition.readAll());
        assertEquals(before, partition.state(), "published partition after an acks=all round trip");
    }

    @Test
    void shouldRefuseFetchesFromReplicaIdsThatAreNotFollowers() throws Exception {
        for (int replicaId : List.of(nonReplica, UNKNOWN_BROKER, leader)) {
            assertFetchError(
                    Errors.NOT_LEADER_OR_FOLLOWER,
                    leader,
                    replicaId,
                    ReplicationRequests.NO_EPOCH,
                    0,
                    ReplicationRequests.NO_EPOCH);
            assertFetchError(
                    Errors.UNKNOWN_LEADER_EPOCH,
                    leader,
                    replicaId,
                    before.leaderEpoch(),
                    0,
                    ReplicationRequests.NO_EPOCH);
        }
    }

    @Test
    void shouldRefuseFetchesAtAReplicaThatDoesNotLead() throws Exception {
        assertFetchError(
                Errors.NOT_LEADER_OR_FOLLOWER, follower, leader, before.leaderEpoch(), 0, ReplicationRequests.NO_EPOCH);
        assertFetchError(
                Errors.NOT_LEADER_OR_FOLLOWER,
                nonReplica,
                follower,
                before.leaderEpoch(),
                0,
                ReplicationRequests.NO_EPOCH);
    }

    @Test
    void shouldFenceOlderAndRefuseNewerCurrentLeaderEpochs() throws Exception {
        for (int replicaId : List.of(ReplicationRequests.CONSUMER, follower)) {
            assertFetchError(
                    Errors.FENCED_LEADER_EPOCH,
                    leader,
                    replicaId,
                    before.leaderEpoch() - 1,
                    0,
                    ReplicationRequests.NO_EPOCH);
            assertFetchError(
                    Errors.UNKNOWN_LEADER_EPOCH,
                    leader,
                    replicaId,
                    before.leaderEpoch() + 1,
                    0,
                    ReplicationRequests.NO_EPOCH);
            // a replica that follows compares the epoch before it says it does not lead, as Kafka's does
            assertFetchError(
                    Errors.FENCED_LEADER_EPOCH,
                    follower,
                    replicaId,
                    before.leaderEpoch() - 1,
                    0,
                    ReplicationRequests.NO_EPOCH);
            assertFetchError(
                    Errors.UNKNOWN_LEADER_EPOCH,
                    follower,
                    replicaId,
                    before.leaderEpoch() + 1,
                    0,
                    ReplicationRequests.NO_EPOCH);
        }
    }

    @Test
    void shouldAnswerFetchOffsetsOutsideTheLogOutOfRange() throws Exception {
        long end = logEnd();
        for (int replicaId : List.of(ReplicationRequests.CONSUMER, follower)) {
            for (long offset : List.of(end + FAR, end + 1, -5L, Long.MAX_VALUE)) {
                assertFetchError(
                        Errors.OFFSET_OUT_OF_RANGE,
                        leader,
                        replicaId,
                        before.leaderEpoch(),
                        offset,
                        ReplicationRequests.NO_EPOCH);
            }
        }
    }

    @Test
    void shouldAnswerAForgedLastFetchedEpochWithTheDivergenceAndNoRecords() throws Exception {
        long end = logEnd();
        FetchResponseData.PartitionData diverging = fetch(leader, follower, before.leaderEpoch(), end - 1, 0);
        assertEquals(Errors.NONE, Errors.forCode(diverging.errorCode()), diverging::toString);
        assertEquals(
                List.of(0, (long) RECORDS_PER_EPOCH),
                List.of(
                        diverging.divergingEpoch().epoch(),
                        diverging.divergingEpoch().endOffset()),
                "diverging epoch for a follower claiming epoch 0 up to " + (end - 1));
        assertEquals(Map.of(), ReplicationRequests.records(diverging), "records next to a diverging epoch");
        assertFetchError(
                Errors.OFFSET_OUT_OF_RANGE, leader, follower, before.leaderEpoch(), end, before.leaderEpoch() + 5);
    }

    @Test
    void shouldAnswerOffsetForLeaderEpochWithForgedEpochs() throws Exception {
        int epoch = before.leaderEpoch();
        long end = logEnd();
        for (int replicaId : List.of(ReplicationRequests.CONSUMER, follower)) {
            assertEndOffset(Errors.FENCED_LEADER_EPOCH, -1, -1, leader, replicaId, epoch - 1, 0);
            assertEndOffset(Errors.UNKNOWN_LEADER_EPOCH, -1, -1, leader, replicaId, epoch + 1, 0);
            assertEndOffset(Errors.NONE, 0, RECORDS_PER_EPOCH, leader, replicaId, epoch, 0);
            assertEndOffset(Errors.NONE, epoch, end, leader, replicaId, epoch, epoch);
            assertEndOffset(Errors.NONE, -1, -1, leader, replicaId, ReplicationRequests.NO_EPOCH, epoch + 5);
            assertEndOffset(Errors.NOT_LEADER_OR_FOLLOWER, -1, -1, follower, replicaId, epoch, 0);
            assertEndOffset(Errors.FENCED_LEADER_EPOCH, -1, -1, follower, replicaId, epoch - 1, 0);
            assertEndOffset(Errors.UNKNOWN_LEADER_EPOCH, -1, -1, follower, replicaId, epoch + 1, 0);
            assertEndOffset(Errors.NOT_LEADER_OR_FOLLOWER, -1, -1, nonReplica, replicaId, epoch, 0);
        }
    }

    @Test
    void shouldRefuseForgedAlterPartitionAndKeepTheIsr() throws Exception {
        int controller = cluster.probe().controller().brokerId();
        int le = before.leaderEpoch();
        int pe = before.partitionEpoch();
        assertAlterPartition(Errors.INVALID_REQUEST, controller, follower, le, pe, List.of(follower));
        assertAlterPartition(Errors.INVALID_REQUEST, controller, nonReplica, le, pe, List.of(nonReplica));
        assertAlterPartition(Errors.FENCED_LEADER_EPOCH, controller, leader, le - 1, pe, List.of(leader));
        assertAlterPartition(Errors.INVALID_UPDATE_VERSION, controller, leader, le, pe - 1, List.of(leader));
        assertAlterPartition(Errors.NOT_CONTROLLER, controller, leader, le + 1, pe, List.of(leader));
        assertAlterPartition(Errors.NOT_CONTROLLER, controller, leader, le, pe + 1, List.of(leader));
        assertAlterPartition(Errors.INVALID_REQUEST, controller, leader, le, pe, List.of(leader, nonReplica));
        assertAlterPartition(Errors.INVALID_REQUEST, controller, leader, le, pe, List.of(follower));
        for (int other : cluster.brokerIds()) {
            if (other != controller) {
                assertAlterPartition(Errors.NOT_CONTROLLER, other, leader, le, pe, List.of(leader));
            }
        }
    }

    private static void produce(String tag) throws Exception {
        try (KafkaProducer<String, String> producer = ClusterClients.idempotentProducer(cluster.bootstrap())) {
            ACKED.putAll(KeyedRecords.produce(producer, TOPIC, List.of(0), RECORDS_PER_EPOCH, tag));
        }
    }

    /** The leader's log end, which the high watermark equals while every replica is in sync and no one writes. */
    private long logEnd() {
        return ACKED.size();
    }

    private FetchResponseData.PartitionData fetch(
            int brokerId, int replicaId, int currentLeaderEpoch, long offset, int lastFetchedEpoch) throws Exception {
        FetchResponse response = RawConnection.once(
                cluster.broker(brokerId).bootstrap(),
                ReplicatedPartition.SETTLE,
                ReplicationRequests.fetch(TOPIC, topicId, replicaId, currentLeaderEpoch, offset, lastFetchedEpoch, 0),
                ApiKeys.FETCH,
                ReplicationRequests.FETCH_VERSION);
        return ReplicationRequests.partition(response);
    }

    private void assertFetchError(
            Errors expected, int brokerId, int replicaId, int currentLeaderEpoch, long offset, int lastFetchedEpoch)
            throws Exception {
        FetchResponseData.PartitionData answer =
                fetch(brokerId, replicaId, currentLeaderEpoch, offset, lastFetchedEpoch);
        String request = "Fetch to broker " + brokerId + " as replica " + replicaId + ", current leader epoch "
                + currentLeaderEpoch + ", offset " + offset + ", last fetched epoch " + lastFetchedEpoch;
        assertEquals(expected, Errors.forCode(answer.errorCode()), request);
        assertEquals(Map.of(), ReplicationRequests.records(answer), request + ": records");
    }

    private void assertEndOffset(
            Errors error,
            int epoch,
            long endOffset,
            int brokerId,
            int replicaId,
            int currentLeaderEpoch,
            int askedEpoch)
            throws Exception {
        OffsetsForLeaderEpochResponse response = RawConnection.once(
                cluster.broker(brokerId).bootstrap(),
                ReplicatedPartition.SETTLE,
                ReplicationRequests.offsetForLeaderEpoch(TOPIC, replicaId, currentLeaderEpoch, askedEpoch),
                ApiKeys.OFFSET_FOR_LEADER_EPOCH,
                ReplicationRequests.OFFSET_FOR_LEADER_EPOCH_VERSION);
        OffsetForLeaderEpochResponseData.EpochEndOffset answer = ReplicationRequests.partition(response);
        assertEquals(
                List.of(error, epoch, endOffset),
                List.of(Errors.forCode(answer.errorCode()), answer.leaderEpoch(), answer.endOffset()),
                "OffsetForLeaderEpoch to broker " + brokerId + " as replica " + replicaId + ", current leader epoch "
                        + currentLeaderEpoch + ", asking for epoch " + askedEpoch);
    }

    private void assertAlterPartition(
            Errors expected, int brokerId, int senderId, int leaderEpoch, int partitionEpoch, List<Integer> isr)
            throws Exception {
        AlterPartitionResponse response = RawConnection.once(
                cluster.broker(brokerId).bootstrap(),
                ReplicatedPartition.SETTLE,
                ReplicationRequests.alterPartition(topicId, senderId, leaderEpoch, partitionEpoch, isr),
                ApiKeys.ALTER_PARTITION,
                ReplicationRequests.ALTER_PARTITION_VERSION);
        assertEquals(
                expected,
                ReplicationRequests.error(response),
                "AlterPartition to broker " + brokerId
                        + " from broker " + senderId + ", leader epoch " + leaderEpoch + ", partition epoch "
                        + partitionEpoch
                        + ", ISR " + isr + " (partition " + before + ")");
    }
}
