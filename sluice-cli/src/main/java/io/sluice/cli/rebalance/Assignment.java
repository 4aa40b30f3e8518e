package io.sluice.cli.rebalance;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Every topic as a broker describes it (internal topics included; one deleted while being read is left out) and the
 * reassignments in progress as the controller lists them, read until two readings in a row agree. Immutable once
 * read.
 *
 * @param topics      by name, in order
 * @param reassigning the reassignments in progress
 */
record Assignment(Map<String, TopicDescription> topics, Map<TopicPartition, PartitionReassignment> reassigning) {

    /**
     * Reads the assignment, then again every {@code poll} until a reading agrees with the one before (the same
     * replicas for every partition, the same reassignments with the same replicas), at most {@code maxReads}
     * readings; then the last reading.
     */
    static Assignment readSettled(Admin admin, Duration poll, int maxReads)
            throws ExecutionException, InterruptedException {
        Assignment last = read(admin);
        for (int reads = 1; reads < maxReads; reads++) {
            Thread.sleep(poll.toMillis());
            Assignment again = read(admin);
            if (again.sameReplicas(last)) {
                return again;
            }
            last = again;
        }
        return last;
    }

    /**
     * Lists the topics, then describes them; a topic deleted between the two (described as unknown) is left out, as
     * are the reassignments of partitions not described.
     */
    static Assignment read(Admin admin) throws ExecutionException, InterruptedException {
        Collection<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true))
                .names()
                .get();
        Map<TopicPartition, PartitionReassignment> listed =
                admin.listPartitionReassignments().reassignments().get();
        Map<String, TopicDescription> topics = new TreeMap<>();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> e :
                admin.describeTopics(names).topicNameValues().entrySet()) {
            try {
                topics.put(e.getKey(), e.getValue().get());
            } catch (ExecutionException failed) {
                if (!(failed.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw failed;
                }
            }
        }
        Map<TopicPartition, PartitionReassignment> reassigning = new HashMap<>();
        listed.forEach((tp, r) -> {
            if (topics.containsKey(tp.topic())) {
                reassigning.put(tp, r);
            }
        });
        return new Assignment(topics, Map.copyOf(reassigning));
    }

    /** Whether {@code other} names the same partitions on the same replicas, and the same reassignments. */
    boolean sameReplicas(Assignment other) {
        return replicasByPartition().equals(other.replicasByPartition())
                && reassignmentsByPartition().equals(other.reassignmentsByPartition());
    }

    private Map<TopicPartition, List<Integer>> replicasByPartition() {
        Map<TopicPartition, List<Integer>> replicas = new LinkedHashMap<>();
        for (TopicDescription topic : topics.values()) {
            for (TopicPartitionInfo p : topic.partitions()) {
                replicas.put(
                        new TopicPartition(topic.name(), p.partition()),
                        p.replicas().stream().map(Node::id).toList());
            }
        }
        return replicas;
    }

    private Map<TopicPartition, List<List<Integer>>> reassignmentsByPartition() {
        Map<TopicPartition, List<List<Integer>>> moves = new LinkedHashMap<>();
        reassigning.forEach((tp, r) -> moves.put(tp, List.of(r.replicas(), r.addingReplicas(), r.removingReplicas())));
        return moves;
    }
}
