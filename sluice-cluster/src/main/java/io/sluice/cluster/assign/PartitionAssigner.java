package io.sluice.cluster.assign;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Places partition replicas on live brokers, a pure function (Kafka's rack-aware scheme):
 * <ul>
 *   <li>brokers are ordered so racks alternate (r1-b1, r2-b1, r3-b1, r1-b2, ...), by id within a rack;</li>
 *   <li>partition p's leader is broker {@code (start + p) mod n} of that order, so leaders are balanced to within
 *       one partition per broker;</li>
 *   <li>followers walk the order from the leader with a shift that changes every n partitions, taking a broker on a
 *       rack not used yet by the partition while one is left, then any broker not used yet.</li>
 * </ul>
 * Stateless; thread-safe.
 */
public final class PartitionAssigner {

    /** A live broker as the assigner sees it. Immutable. */
    public record Candidate(int id, String rack) {}

    private PartitionAssigner() {}

    /**
     * Assigns {@code partitions} partitions of {@code replicationFactor} replicas each.
     *
     * @param brokers    live brokers (any order; duplicates rejected); a blank rack means "no rack"
     * @param startIndex rotates the first leader (pass e.g. a hash of the topic name so topics spread)
     * @return replicas per partition, preferred leader first
     * @throws InvalidAssignmentException when there are fewer brokers than replicas or non-positive counts
     */
    public static int[][] assign(List<Candidate> brokers, int partitions, int replicationFactor, int startIndex) {
        if (partitions <= 0) {
            throw new InvalidAssignmentException("partition count must be > 0, was " + partitions);
        }
        if (replicationFactor <= 0) {
            throw new InvalidAssignmentException("replication factor must be > 0, was " + replicationFactor);
        }
        if (replicationFactor > brokers.size()) {
            throw new InvalidAssignmentException(
                    "replication factor " + replicationFactor + " exceeds the " + brokers.size() + " live brokers");
        }
        int[] order = rackAlternated(brokers);
        String[] rackOf = new String[order.length];
        Map<Integer, String> racks = new TreeMap<>();
        for (Candidate c : brokers) {
            racks.put(c.id(), c.rack() == null ? "" : c.rack());
        }
        for (int i = 0; i < order.length; i++) {
            rackOf[i] = racks.get(order[i]);
        }
        int distinctRacks = new HashSet<>(racks.values()).size();
        int n = order.length;
        int start = Math.floorMod(startIndex, n);
        int[][] result = new int[partitions][];
        boolean[] used = new boolean[n];
        Set<String> usedRacks = new HashSet<>();
        for (int p = 0; p < partitions; p++) {
            int[] replicas = new int[replicationFactor];
            Arrays.fill(used, false);
            usedRacks.clear();
            int first = (start + p) % n;
            replicas[0] = order[first];
            used[first] = true;
            usedRacks.add(rackOf[first]);
            int shift = n > 1 ? 1 + (p / n) % (n - 1) : 0;
            for (int r = 1; r < replicationFactor; r++) {
                boolean wantNewRack = usedRacks.size() < distinctRacks;
                int chosen = -1;
                for (int step = 0; step < n && chosen < 0; step++) {
                    int idx = (first + shift + step) % n;
                    if (!used[idx] && (!wantNewRack || !usedRacks.contains(rackOf[idx]))) {
                        chosen = idx;
                    }
                }
                used[chosen] = true;
                usedRacks.add(rackOf[chosen]);
                replicas[r] = order[chosen];
            }
            result[p] = replicas;
        }
        return result;
    }

    /** Broker ids ordered so consecutive brokers sit on different racks while racks last. */
    static int[] rackAlternated(List<Candidate> brokers) {
        Map<String, List<Integer>> byRack = new TreeMap<>();
        Set<Integer> seen = new HashSet<>();
        for (Candidate c : brokers) {
            if (!seen.add(c.id())) {
                throw new InvalidAssignmentException("broker " + c.id() + " is listed twice");
            }
            byRack.computeIfAbsent(c.rack() == null ? "" : c.rack(), k -> new ArrayList<>())
                    .add(c.id());
        }
        Map<String, List<Integer>> sorted = new LinkedHashMap<>();
        for (Map.Entry<String, List<Integer>> e : byRack.entrySet()) {
            List<Integer> ids = new ArrayList<>(e.getValue());
            ids.sort(null);
            sorted.put(e.getKey(), ids);
        }
        int[] order = new int[brokers.size()];
        int k = 0;
        for (int round = 0; k < order.length; round++) {
            for (List<Integer> ids : sorted.values()) {
                if (round < ids.size()) {
                    order[k++] = ids.get(round);
                }
            }
        }
        return order;
    }
}
