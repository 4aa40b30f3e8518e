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
 *   <li>a broker in controlled shutdown takes no new replica (as in Kafka 3.9's controller); the others are placed
 *       on as if it were not there;</li>
 *   <li>brokers are ordered so racks alternate (r1-b1, r2-b1, r3-b1, r1-b2, ...), by id within a rack;</li>
 *   <li>partition p's leader is broker {@code (start + p) mod n} of that order, so leaders are balanced to within
 *       one partition per broker;</li>
 *   <li>followers walk the order from the leader with a shift that changes every n partitions, taking a broker on a
 *       rack not used yet by the partition while one is left, then any broker not used yet.</li>
 * </ul>
 * Stateless; thread-safe.
 */
public final class PartitionAssigner {

    /** A live broker as the assigner sees it; one {@code inControlledShutdown} takes no new replica. Immutable. */
    public record Candidate(int id, String rack, boolean inControlledShutdown) {
        /** A broker that takes new replicas. */
        public Candidate(int id, String rack) {
            this(id, rack, false);
        }
    }

    private PartitionAssigner() {}

    /**
     * Assigns {@code partitions} partitions of {@code replicationFactor} replicas each.
     *
     * @param listed     live brokers, those in controlled shutdown included (any order; duplicates rejected); a blank
     *     rack means "no rack"
     * @param startIndex rotates the first leader (pass e.g. a hash of the topic name so topics spread)
     * @return replicas per partition, preferred leader first, none on a broker in controlled shutdown
     * @throws InvalidAssignmentException when there are fewer brokers not in controlled shutdown than replicas, or
     *     non-positive counts
     */
    public static int[][] assign(List<Candidate> listed, int partitions, int replicationFactor, int startIndex) {
        if (partitions <= 0) {
            throw new InvalidAssignmentException("partition count must be > 0, was " + partitions);
        }
        if (replicationFactor <= 0) {
            throw new InvalidAssignmentException("replication factor must be > 0, was " + replicationFactor);
        }
        List<Candidate> brokers = usable(listed);
        if (replicationFactor > brokers.size()) {
            throw new InvalidAssignmentException(tooFewBrokers(listed, brokers.size(), replicationFactor));
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

    /** The brokers not in controlled shutdown; a broker id listed twice is refused. */
    private static List<Candidate> usable(List<Candidate> listed) {
        List<Candidate> usable = new ArrayList<>(listed.size());
        Set<Integer> seen = new HashSet<>();
        for (Candidate c : listed) {
            if (!seen.add(c.id())) {
                throw new InvalidAssignmentException("broker " + c.id() + " is listed twice");
            }
            if (!c.inControlledShutdown()) {
                usable.add(c);
            }
        }
        return usable;
    }

    /** The refusal naming both counts, and the brokers left out for being in controlled shutdown. */
    private static String tooFewBrokers(List<Candidate> listed, int usable, int replicationFactor) {
        StringBuilder message = new StringBuilder("Replication factor: ")
                .append(replicationFactor)
                .append(" larger than available brokers: ")
                .append(usable)
                .append('.');
        List<Integer> shuttingDown = new ArrayList<>();
        for (Candidate c : listed) {
            if (c.inControlledShutdown()) {
                shuttingDown.add(c.id());
            }
        }
        if (!shuttingDown.isEmpty()) {
            shuttingDown.sort(null);
            message.append(" Brokers in controlled shutdown take no new replicas: ")
                    .append(shuttingDown)
                    .append('.');
        }
        return message.toString();
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
