package io.sluice.cluster.state;

import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.codec.error.MalformedInputException;
import java.util.Arrays;

/**
 * The rules of {@link ClusterState}'s brokers in controlled shutdown, held as an ascending array of live broker ids:
 * how a delta changes them and how decoded ids are checked. Stateless; thread-safe.
 */
final class ShuttingDownBrokers {
    static final int[] NONE = new int[0];

    private ShuttingDownBrokers() {}

    /**
     * The brokers in controlled shutdown after {@code delta} ({@code shuttingDown} before it, ascending): a broker
     * that left or registered again (a join or a bounce, both in {@code joined}) is no longer marked; then the
     * delta's {@code shuttingDown} are, where live.
     */
    static int[] after(int[] shuttingDown, DeltaRecord delta, BrokerTable brokersAfter, long seq) {
        if (delta.shuttingDown.length == 0
                && (shuttingDown.length == 0 || delta.joined.isEmpty() && delta.left.length == 0)) {
            return shuttingDown;
        }
        int[] kept = new int[shuttingDown.length + delta.shuttingDown.length];
        int n = 0;
        for (int id : shuttingDown) {
            if (!BrokerIds.contains(delta.left, id) && !registeredIn(delta, id, seq)) {
                kept[n++] = id;
            }
        }
        for (int id : delta.shuttingDown) {
            kept[n++] = id;
        }
        return liveSorted(brokersAfter, Arrays.copyOf(kept, n), "delta " + seq + " shuttingDown");
    }

    private static boolean registeredIn(DeltaRecord delta, int id, long seq) {
        for (Object r : delta.joined) {
            if (DecodedElements.element(BrokerRecord.class, r, "delta " + seq + " joined").brokerId == id) {
                return true;
            }
        }
        return false;
    }

    /** The ids of {@code ids} live in {@code brokers}, ascending and without duplicates; a negative id is malformed. */
    static int[] liveSorted(BrokerTable brokers, int[] ids, String where) {
        int[] sorted = ids.clone();
        Arrays.sort(sorted);
        int n = 0;
        for (int id : sorted) {
            if (id < 0) {
                throw new MalformedInputException(where + ": broker id " + id + " is negative");
            }
            if (brokers.contains(id) && (n == 0 || sorted[n - 1] != id)) {
                sorted[n++] = id;
            }
        }
        return n == 0 ? NONE : Arrays.copyOf(sorted, n);
    }
}
