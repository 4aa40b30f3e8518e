package io.sluice.cluster.controller;

import io.sluice.cluster.state.BrokerIds;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.PartitionChangeRecord;
import io.sluice.cluster.state.wire.TopicRecord;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The controller's indexes over the partitions of its state, so a membership change looks only at the partitions it
 * can affect: the partitions each broker is a replica of (a leaving or bounced broker can only change partitions it
 * leads, and a leader is always a replica), and the partitions currently offline (the only ones a join can bring
 * back). Kept in step with every delta the controller applies; rebuilt from a loaded state.
 *
 * <p>Not thread-safe; owned by the controller thread.
 */
final class PartitionIndex {
    private final Map<Integer, Set<PartitionKey>> byReplica = new HashMap<>();
    private final Set<PartitionKey> offline = new LinkedHashSet<>();

    /** Forgets everything and indexes {@code state}: O(partitions x replicas), once per take-over. */
    void rebuild(ClusterState state) {
        byReplica.clear();
        offline.clear();
        for (TopicState topic : state.topicsById().values()) {
            add(topic);
        }
    }

    /**
     * Follows {@code delta} (already applied: {@code before} is the state it was applied to, {@code after} the
     * result). O(size of the change).
     */
    void applied(ClusterState before, DeltaRecord delta, ClusterState after) {
        for (UUID id : delta.deletedTopics) {
            TopicState gone = before.topic(id);
            if (gone != null) {
                remove(gone);
            }
        }
        for (TopicRecord created : delta.createdTopics) {
            TopicState topic = after.topic(created.toTopic().id());
            if (topic != null) {
                add(topic);
            }
        }
        for (PartitionChangeRecord a : delta.addedPartitions) {
            PartitionKey key = new PartitionKey(a.topicId, a.partition);
            replicasChanged(key, new int[0], a.replicas);
            if (a.leader == PartitionState.NO_LEADER) {
                offline.add(key);
            }
        }
        Map<PartitionKey, int[]> replicasSoFar = new HashMap<>();
        for (PartitionChangeRecord c : delta.partitionChanges) {
            PartitionKey key = new PartitionKey(c.topicId, c.partition);
            if (c.replicas != null) {
                int[] from = replicasSoFar.get(key);
                TopicState was = before.topic(c.topicId);
                if (from == null) {
                    from = was == null ? new int[0] : was.partition(c.partition).replicas();
                }
                replicasChanged(key, from, c.replicas);
                replicasSoFar.put(key, c.replicas);
            }
            if (c.leader == PartitionState.NO_LEADER) {
                offline.add(key);
            } else {
                offline.remove(key);
            }
        }
    }

    /** A reassignment step moved {@code key} from replicas {@code from} to {@code to}. */
    private void replicasChanged(PartitionKey key, int[] from, int[] to) {
        for (int r : from) {
            if (!BrokerIds.contains(to, r)) {
                Set<PartitionKey> s = byReplica.get(r);
                if (s != null && s.remove(key) && s.isEmpty()) {
                    byReplica.remove(r);
                }
            }
        }
        for (int r : to) {
            byReplica.computeIfAbsent(r, k -> new LinkedHashSet<>()).add(key);
        }
    }

    /** Partitions broker {@code brokerId} is a replica of; read-only. */
    Set<PartitionKey> replicaOf(int brokerId) {
        Set<PartitionKey> s = byReplica.get(brokerId);
        return s == null ? Collections.emptySet() : Collections.unmodifiableSet(s);
    }

    /** Partitions without a leader; read-only. */
    Set<PartitionKey> offline() {
        return Collections.unmodifiableSet(offline);
    }

    private void add(TopicState topic) {
        for (int p = 0; p < topic.partitionCount(); p++) {
            PartitionState ps = topic.partition(p);
            PartitionKey key = new PartitionKey(topic.id(), p);
            for (int r : ps.replicas()) {
                byReplica.computeIfAbsent(r, k -> new LinkedHashSet<>()).add(key);
            }
            if (ps.isOffline()) {
                offline.add(key);
            }
        }
    }

    private void remove(TopicState topic) {
        for (int p = 0; p < topic.partitionCount(); p++) {
            PartitionKey key = new PartitionKey(topic.id(), p);
            for (int r : topic.partition(p).replicas()) {
                Set<PartitionKey> s = byReplica.get(r);
                if (s != null && s.remove(key) && s.isEmpty()) {
                    byReplica.remove(r);
                }
            }
            offline.remove(key);
        }
    }
}
