package io.sluice.cluster.controller;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.DeltaRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka's automatic leader rebalance: moves leadership back to preferred replicas of brokers whose share of
 * partitions led elsewhere passed the threshold. Pure logic over a {@link ClusterState}. Stateless; thread-safe.
 */
final class LeaderImbalance {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicationControl.class);

    private LeaderImbalance() {}

    /**
     * Kafka's checkAndTriggerAutoLeaderRebalance: for each broker, the share of the partitions it is the preferred
     * replica of that another broker (or nobody) leads; above {@link ClusterConfig#leaderImbalancePerBrokerPercentage()}
     * it gets the leadership of those where it is in sync, when {@code eligible} (live, not shutting down). O(partitions).
     */
    static void rebalance(ClusterState state, int perBrokerPercentage, IntPredicate eligible, DeltaRecord delta) {
        Map<Integer, int[]> preferredCount = new HashMap<>();
        Map<Integer, List<PartitionKey>> ledElsewhere = new HashMap<>();
        for (TopicState topic : state.topicsById().values()) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                PartitionState ps = topic.partition(p);
                int preferred = ps.preferredReplica();
                preferredCount.computeIfAbsent(preferred, k -> new int[1])[0]++;
                if (ps.leader() != preferred) {
                    ledElsewhere
                            .computeIfAbsent(preferred, k -> new ArrayList<>())
                            .add(new PartitionKey(topic.id(), p));
                }
            }
        }
        PendingChanges pending = new PendingChanges(state, delta);
        double threshold = perBrokerPercentage / 100.0;
        for (Map.Entry<Integer, List<PartitionKey>> e : ledElsewhere.entrySet()) {
            int broker = e.getKey();
            double ratio = (double) e.getValue().size() / preferredCount.get(broker)[0];
            if (ratio <= threshold || !eligible.test(broker)) {
                continue;
            }
            int moved = 0;
            for (PartitionKey key : e.getValue()) {
                PartitionState ps = pending.current(key);
                if (ps.inIsr(broker)) {
                    pending.change(key, ps.withLeader(broker, ps.leaderEpoch() + 1, ps.isr()));
                    moved++;
                }
            }
            if (moved > 0) {
                LOG.info(
                        "leader imbalance of broker {} is {} (above {}): it leads {} of its preferred partitions "
                                + "again",
                        broker,
                        ratio,
                        threshold,
                        moved);
            }
        }
    }
}
