package io.sluice.cluster.controller;

import io.sluice.cluster.state.ClusterState;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The brokers one membership publication changes: joined, left, and bounced (re-registered under a new session while
 * the state still lists them). Liveness after the change is answered from the state plus these short lists, so no
 * set of every live broker is built. Not thread-safe; one per reconciliation on the controller thread.
 */
final class MembershipChange {
    final Set<Integer> joined = new LinkedHashSet<>();
    final Set<Integer> left = new LinkedHashSet<>();
    final Set<Integer> bounced = new LinkedHashSet<>();
    private final ClusterState before;

    MembershipChange(ClusterState before) {
        this.before = before;
    }

    boolean isEmpty() {
        return joined.isEmpty() && left.isEmpty() && bounced.isEmpty();
    }

    /** Whether broker {@code id} is live once this change is applied. */
    boolean liveAfter(int id) {
        return joined.contains(id) || before.hasBroker(id) && !left.contains(id);
    }

    int[] leftIds() {
        int[] ids = new int[left.size()];
        int i = 0;
        for (int id : left) {
            ids[i++] = id;
        }
        return ids;
    }
}
