package io.sluice.cluster.controller;

import static io.sluice.cluster.state.BrokerIds.contains;
import static io.sluice.cluster.state.BrokerIds.without;
import static io.sluice.cluster.state.PartitionState.NO_LEADER;

import java.util.function.IntPredicate;

/** Broker-id arrays as the partition rules use them (replica lists, ISRs), order kept. Stateless; thread-safe. */
final class ReplicaIds {
    private ReplicaIds() {}

    /** The first of {@code order} that is in {@code members} and passes {@code eligible}; NO_LEADER when none. */
    static int firstIn(int[] order, int[] members, IntPredicate eligible) {
        for (int id : order) {
            if (contains(members, id) && eligible.test(id)) {
                return id;
            }
        }
        return NO_LEADER;
    }

    static int[] withoutIfOthersRemain(int[] isr, int id) {
        return isr.length > 1 && contains(isr, id) ? without(isr, id) : isr;
    }

    static boolean isSubsetWithoutDuplicates(int[] ids, int[] of) {
        for (int i = 0; i < ids.length; i++) {
            if (!contains(of, ids[i])) {
                return false;
            }
            for (int j = 0; j < i; j++) {
                if (ids[j] == ids[i]) {
                    return false;
                }
            }
        }
        return true;
    }
}
