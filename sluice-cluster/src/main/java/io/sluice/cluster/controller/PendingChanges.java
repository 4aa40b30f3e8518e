package io.sluice.cluster.controller;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.PartitionChangeRecord;
import java.util.HashMap;
import java.util.Map;

/**
 * The partition changes of one delta being built: each change is added to the delta as a record and remembered, so a
 * later rule of the same delta sees the partition as it will be published, not as the state had it. Not thread-safe;
 * one per delta, on the controller thread.
 */
final class PendingChanges {
    private final ClusterState state;
    private final DeltaRecord delta;
    private final Map<PartitionKey, PartitionState> changed = new HashMap<>();

    PendingChanges(ClusterState state, DeltaRecord delta) {
        this.state = state;
        this.delta = delta;
    }

    ClusterState base() {
        return state;
    }

    /** The partition as this delta leaves it so far. */
    PartitionState current(PartitionKey key) {
        PartitionState p = changed.get(key);
        return p != null ? p : state.topic(key.topicId()).partition(key.partition());
    }

    /** Records {@code next} as the partition's new state (its partition epoch already bumped by the caller). */
    void change(PartitionKey key, PartitionState next) {
        changed.put(key, next);
        delta.partitionChanges.add(PartitionChangeRecord.of(key.topicId(), key.partition(), next));
    }

    boolean isEmpty() {
        return changed.isEmpty();
    }
}
