package io.sluice.cluster.state;

import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * Broker-id arrays as replica lists and ISRs are held (small, no duplicates, order meaningful): membership and the set
 * operations the partition rules, the controller and a leader's ISR bookkeeping use, each keeping the order of its
 * first argument. Stateless; thread-safe.
 */
public final class BrokerIds {
    private BrokerIds() {}

    public static boolean contains(int[] ids, int id) {
        for (int v : ids) {
            if (v == id) {
                return true;
            }
        }
        return false;
    }

    /** {@code ids} without {@code id}; {@code ids} itself when it does not hold it. */
    public static int[] without(int[] ids, int id) {
        return contains(ids, id) ? keep(ids, v -> v != id) : ids;
    }

    /** The members of {@code ids} not in {@code drop}, in order. */
    public static int[] minus(int[] ids, int[] drop) {
        return keep(ids, v -> !contains(drop, v));
    }

    /** The members of {@code ids} also in {@code others}, in the order of {@code ids}. */
    public static int[] intersect(int[] ids, int[] others) {
        return keep(ids, v -> contains(others, v));
    }

    /** {@code a}, then the members of {@code b} not in {@code a}, in order. */
    public static int[] union(int[] a, int[] b) {
        int[] out = Arrays.copyOf(a, a.length + b.length);
        int n = a.length;
        for (int id : b) {
            if (!contains(a, id)) {
                out[n++] = id;
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    private static int[] keep(int[] ids, IntPredicate test) {
        int[] out = new int[ids.length];
        int n = 0;
        for (int v : ids) {
            if (test.test(v)) {
                out[n++] = v;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
