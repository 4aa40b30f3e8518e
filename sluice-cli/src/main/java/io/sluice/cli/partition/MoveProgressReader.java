package io.sluice.cli.partition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeLogDirsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Reads the moves in progress through Kafka's Admin API: ListPartitionReassignments for the moves, Metadata for
 * leaders and ISRs, DescribeLogDirs for the size of each copy. An adding replica still below 99% of the leader's
 * copy is copying; one at or above it but outside the ISR is catching up; once every adding replica is in sync the
 * controller is switching the replica set. Each broker is given a bounded time to report its copies: one that does
 * not (hung, paused, overloaded) has its copies counted as empty and is named in {@link #silentBrokers()}, so one sick
 * broker does not hold every reading for the Admin client's default timeout. Not thread-safe; one per command.
 */
public final class MoveProgressReader {
    private static final double CAUGHT_UP_SHARE = 0.99;

    private final Admin admin;
    private final Duration brokerTimeout;
    private Set<Integer> silentBrokers = Set.of();

    /** @param brokerTimeout how long each broker is given to describe its log directories */
    public MoveProgressReader(Admin admin, Duration brokerTimeout) {
        this.admin = admin;
        this.brokerTimeout = brokerTimeout;
    }

    /** The live brokers asked for their copies by the last {@link #read()} that did not answer, ascending. */
    public Set<Integer> silentBrokers() {
        return silentBrokers;
    }

    public List<MoveProgress> read() throws ExecutionException, InterruptedException {
        silentBrokers = Set.of();
        Map<TopicPartition, PartitionReassignment> moves =
                admin.listPartitionReassignments().reassignments().get();
        if (moves.isEmpty()) {
            return List.of();
        }
        Set<String> topics = new HashSet<>();
        Set<Integer> brokers = new HashSet<>();
        for (Map.Entry<TopicPartition, PartitionReassignment> e : moves.entrySet()) {
            topics.add(e.getKey().topic());
            brokers.addAll(e.getValue().replicas());
        }
        Map<String, TopicDescription> described =
                admin.describeTopics(topics).allTopicNames().get();
        Map<Integer, Map<TopicPartition, Long>> sizes = sizes(brokers);
        List<MoveProgress> out = new ArrayList<>();
        for (Map.Entry<TopicPartition, PartitionReassignment> e : moves.entrySet()) {
            TopicPartition tp = e.getKey();
            PartitionReassignment move = e.getValue();
            TopicPartitionInfo info = described.get(tp.topic()).partitions().get(tp.partition());
            long total = sourceSize(tp, info, move, sizes);
            Set<Integer> isr = new HashSet<>();
            for (Node n : info.isr()) {
                isr.add(n.id());
            }
            long shipped = 0;
            boolean copying = false;
            boolean allInSync = true;
            for (int id : move.addingReplicas()) {
                long held = Math.min(total, sizes.getOrDefault(id, Map.of()).getOrDefault(tp, 0L));
                shipped += held;
                copying |= held < total * CAUGHT_UP_SHARE;
                allInSync &= isr.contains(id);
            }
            MoveProgress.Phase phase = allInSync
                    ? MoveProgress.Phase.SWITCHING
                    : copying ? MoveProgress.Phase.COPYING : MoveProgress.Phase.CATCH_UP;
            out.add(new MoveProgress(
                    tp.topic(),
                    tp.partition(),
                    move.replicas(),
                    move.addingReplicas(),
                    move.removingReplicas(),
                    total,
                    shipped,
                    total * move.addingReplicas().size(),
                    phase));
        }
        out.sort((a, b) -> a.name().compareTo(b.name()));
        return out;
    }

    /**
     * The size of the copy being moved: the leader's; while the partition has no leader (or its leader did not
     * answer), the largest copy among the replicas that are not being added, so a leaderless move does not read as
     * done. 0 when none of them answered.
     */
    static long sourceSize(
            TopicPartition tp,
            TopicPartitionInfo info,
            PartitionReassignment move,
            Map<Integer, Map<TopicPartition, Long>> sizes) {
        Long leaders = info.leader() == null
                ? null
                : sizes.getOrDefault(info.leader().id(), Map.of()).get(tp);
        if (leaders != null) {
            return leaders;
        }
        long largest = 0;
        for (int id : move.replicas()) {
            if (!move.addingReplicas().contains(id)) {
                largest = Math.max(largest, sizes.getOrDefault(id, Map.of()).getOrDefault(tp, 0L));
            }
        }
        return largest;
    }

    /**
     * Broker → partition → size of its copy; brokers that do not answer within the broker timeout are left out (and
     * kept as silent). Only live brokers are asked: the Admin client waits for a node id it does not know until the
     * timeout, and moves off a dead broker are the common case.
     */
    private Map<Integer, Map<TopicPartition, Long>> sizes(Set<Integer> brokers)
            throws InterruptedException, ExecutionException {
        Set<Integer> live = new HashSet<>();
        for (Node node : admin.describeCluster().nodes().get()) {
            if (brokers.contains(node.id())) {
                live.add(node.id());
            }
        }
        Map<Integer, Map<TopicPartition, Long>> sizes = new HashMap<>();
        if (live.isEmpty()) {
            return sizes;
        }
        Set<Integer> silent = new TreeSet<>();
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, Math.max(1, brokerTimeout.toMillis()));
        admin.describeLogDirs(live, new DescribeLogDirsOptions().timeoutMs(timeoutMs))
                .descriptions()
                .forEach((broker, future) -> {
                    try {
                        for (LogDirDescription dir : future.get().values()) {
                            for (Map.Entry<TopicPartition, ReplicaInfo> r :
                                    dir.replicaInfos().entrySet()) {
                                sizes.computeIfAbsent(broker, b -> new HashMap<>())
                                        .merge(r.getKey(), r.getValue().size(), Long::sum);
                            }
                        }
                    } catch (ExecutionException e) {
                        // A broker that does not answer reports nothing; its copies count as empty.
                        silent.add(broker);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException();
        }
        silentBrokers = Collections.unmodifiableSet(silent);
        return sizes;
    }
}
