package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.PartitionState;
import io.sluice.testkit.Poll;
import io.sluice.testkit.SluiceBrokerProcess;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochResponse;
import org.junit.jupiter.api.Test;

/**
 * KIP-101: a replica whose log ends in a leader epoch the final leader never had. The preferred replica P leads epoch
 * 0; a controlled shutdown moves leadership to Q (epoch 1), P returns and catches up; a preferred election gives P
 * epoch 2 and P is frozen (SIGSTOP) before any record of epoch 2 reached a follower, so a third leader takes epoch 3
 * without ever holding epoch 2. What P appends in epoch 2 when it resumes (the zombie batch of {@link FrozenLeader},
 * at the offsets where the new leader writes epoch 3) diverges: the new leader's answer for epoch 2 is "epoch 1, ended
 * where epoch 3 began", and P must truncate there instead of keeping its suffix (which a high-watermark truncation
 * could keep, or a follower comparing offsets alone would take as already replicated). Every record acknowledged to
 * acks=all, in each of the epochs, is read exactly once afterwards, and the three logs end byte-identical.
 */
class DivergentEpochTest extends ClusterTestBase {
    private static final String TOPIC = "kip101";
    private static final int RECORDS_PER_EPOCH = 200;

    @Override
    List<String> brokerOverrides() {
        return replicationSettings(6000);
    }

    @Test
    void shouldTruncateASuffixFromAnEpochTheFinalLeaderNeverHad() throws Exception {
        ReplicatedPartition partition = ReplicatedPartition.create(cluster, TOPIC, Map.of("min.insync.replicas", "2"));
        PartitionState first = partition.state();
        int preferred = first.leader();
        Map<String, KeyedRecords.Expected> acked = new LinkedHashMap<>(produceIn(first));

        cluster.broker(preferred).stop();
        PartitionState second = partition.awaitNewLeader(first);
        acked.putAll(produceIn(second));
        cluster.broker(preferred).restart();
        partition.awaitFullIsrAfter(second);
        long endOfSecondEpoch = acked.size();

        PartitionState middle = electPreferred(partition, preferred, second);
        ProduceResponseData.PartitionProduceResponse acksOne;
        ProduceResponseData.PartitionProduceResponse acksAll;
        PartitionState last;
        try (FrozenLeader frozen = FrozenLeader.freeze(cluster.broker(preferred), TOPIC, "zombie")) {
            last = partition.awaitNewLeader(middle);
            acked.putAll(produceIn(last));
            acksOne = frozen.thaw();
            acksAll = frozen.acksAllAnswer();
        }
        partition.awaitFullIsrAfter(last);

        assertEquals(
                Errors.NONE,
                Errors.forCode(acksOne.errorCode()),
                "precondition: the resumed broker " + preferred + " still took the acks=1 batch as leader of epoch "
                        + middle.leaderEpoch());
        assertTrue(
                acksOne.baseOffset() == endOfSecondEpoch
                        || acksOne.baseOffset() == endOfSecondEpoch + FrozenLeader.RECORDS_PER_REQUEST,
                "precondition: the zombie batches (acks=1 and acks=all, in either order) are the first of epoch "
                        + middle.leaderEpoch() + ", from offset " + endOfSecondEpoch + "; acks=1 at "
                        + acksOne.baseOffset());
        assertNotEquals(
                Errors.NONE,
                Errors.forCode(acksAll.errorCode()),
                "acks=all acknowledged by a leader whose followers had left it: " + acksAll);
        OffsetForLeaderEpochResponseData.EpochEndOffset asked = endOffsetFor(last.leader(), middle.leaderEpoch());
        assertEquals(
                List.of(Errors.NONE.code(), second.leaderEpoch(), endOfSecondEpoch),
                List.of(asked.errorCode(), asked.leaderEpoch(), asked.endOffset()),
                "precondition: the final leader " + last.leader() + " never held epoch " + middle.leaderEpoch() + ": "
                        + asked);
        KeyedRecords.assertExactlyOnce(acked, partition.readAll());
        partition.awaitIdenticalReplicas();
    }

    /** {@link #RECORDS_PER_EPOCH} records through a fresh idempotent acks=all producer, while {@code state} holds. */
    private Map<String, KeyedRecords.Expected> produceIn(PartitionState state) throws Exception {
        return produce(TOPIC, List.of(0), RECORDS_PER_EPOCH, "epoch" + state.leaderEpoch());
    }

    /** Moves leadership back to the preferred replica and waits until that broker acts as the leader. */
    private PartitionState electPreferred(ReplicatedPartition partition, int preferred, PartitionState current)
            throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            Map<?, Optional<Throwable>> result = admin.electLeaders(
                            ElectionType.PREFERRED, Set.of(partition.topicPartition()))
                    .partitions()
                    .get(ClusterClients.REQUEST_TIMEOUT_MS * 3L, TimeUnit.MILLISECONDS);
            assertEquals(Optional.empty(), result.values().iterator().next(), "preferred election");
        }
        PartitionState elected = partition.awaitState(
                "the preferred replica " + preferred + " leads again",
                p -> p.leader() == preferred
                        && p.leaderEpoch() > current.leaderEpoch()
                        && p.isr().length == p.replicas().length);
        SluiceBrokerProcess broker = cluster.broker(preferred);
        Poll.until(
                "broker " + preferred + " answers Metadata as leader in epoch " + elected.leaderEpoch(),
                SETTLE,
                () -> OneRequest.metadata(broker.bootstrap(), TOPIC)
                        .partitions()
                        .get(0),
                (MetadataResponseData.MetadataResponsePartition p) ->
                        p.leaderId() == preferred && p.leaderEpoch() == elected.leaderEpoch());
        return elected;
    }

    private OffsetForLeaderEpochResponseData.EpochEndOffset endOffsetFor(int brokerId, int epoch) throws Exception {
        OffsetsForLeaderEpochResponse response = RawConnection.once(
                cluster.broker(brokerId).bootstrap(),
                SETTLE,
                ReplicationRequests.offsetForLeaderEpoch(
                        TOPIC, ReplicationRequests.CONSUMER, ReplicationRequests.NO_EPOCH, epoch),
                ApiKeys.OFFSET_FOR_LEADER_EPOCH,
                ReplicationRequests.OFFSET_FOR_LEADER_EPOCH_VERSION);
        return ReplicationRequests.partition(response);
    }
}
