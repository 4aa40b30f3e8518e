package io.sluice.cluster.controller;

import io.sluice.cluster.assign.InvalidAssignmentException;
import io.sluice.cluster.assign.PartitionAssigner;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.PartitionChangeRecord;
import io.sluice.cluster.state.wire.TopicRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Kafka's CreatePartitions and the manual replica assignments of CreateTopics, as the controller decides them: a
 * topic grows to the count asked for, each new partition on the replicas given (checked as Kafka's controller checks
 * a manual assignment: non-empty, no broker twice, every broker registered, one replica count for all partitions) or
 * placed rack-aware by {@link PartitionAssigner} continuing the topic's own rotation, never on a broker in controlled
 * shutdown. A new partition is empty everywhere, so every replica not in controlled shutdown is in sync and the first
 * of them leads. Refusals carry Kafka's error and message.
 *
 * <p>Pure logic over a {@link ClusterState}; stateless, safe to share.
 */
final class PartitionGrowth {
    private PartitionGrowth() {}

    /**
     * Adds the partitions of each request to {@code delta} (nothing when {@code validateOnly}); one result per request,
     * in request order. A topic named twice is the caller's to refuse.
     */
    static List<CreatePartitionsResult> grow(
            ClusterState state, List<PartitionIncrease> requests, boolean validateOnly, DeltaRecord delta) {
        List<CreatePartitionsResult> results = new ArrayList<>(requests.size());
        for (PartitionIncrease request : requests) {
            try {
                TopicState topic = state.topic(request.topic());
                int[][] replicas = newReplicas(state, topic, request);
                PartitionState[] added = newPartitions(state, replicas, topic.partitionCount());
                if (!validateOnly) {
                    for (int i = 0; i < added.length; i++) {
                        delta.addedPartitions.add(
                                PartitionChangeRecord.of(topic.id(), topic.partitionCount() + i, added[i]));
                    }
                }
                results.add(CreatePartitionsResult.ok(request.topic()));
            } catch (InvalidAssignmentRequestException e) {
                results.add(new CreatePartitionsResult(request.topic(), e.error(), e.getMessage()));
            }
        }
        return results;
    }

    private static int[][] newReplicas(ClusterState state, TopicState topic, PartitionIncrease request)
            throws InvalidAssignmentRequestException {
        if (topic == null) {
            throw new InvalidAssignmentRequestException(
                    ReplicationError.UNKNOWN_TOPIC_OR_PARTITION, "The topic '" + request.topic() + "' does not exist.");
        }
        int current = topic.partitionCount();
        if (request.count() < current) {
            throw new InvalidAssignmentRequestException(
                    ReplicationError.INVALID_PARTITIONS,
                    "Topic currently has " + current + " partitions, " + request.count()
                            + " would not be an increase.");
        }
        if (request.count() == current) {
            throw new InvalidAssignmentRequestException(
                    ReplicationError.INVALID_PARTITIONS, "Topic already has " + current + " partitions.");
        }
        if (request.count() > TopicRecord.MAX_PARTITIONS) {
            throw new InvalidAssignmentRequestException(
                    ReplicationError.INVALID_PARTITIONS,
                    "Topic may have at most " + TopicRecord.MAX_PARTITIONS + " partitions, " + request.count()
                            + " were asked for.");
        }
        for (int p = 0; p < current; p++) {
            if (topic.partition(p).isReassigning()) {
                throw new InvalidAssignmentRequestException(
                        ReplicationError.REASSIGNMENT_IN_PROGRESS,
                        "A partition reassignment is in progress for topic '" + topic.name() + "' (partition " + p
                                + ").");
            }
        }
        int increment = request.count() - current;
        int replicationFactor = topic.partition(0).replicas().length;
        if (request.assignments() == null) {
            int[][] all = place(state, topic.name(), request.count(), replicationFactor);
            return Arrays.copyOfRange(all, current, all.length);
        }
        if (request.assignments().length != increment) {
            throw new InvalidAssignmentRequestException(
                    ReplicationError.INVALID_REPLICA_ASSIGNMENT,
                    "Increasing the number of partitions by " + increment + " but " + request.assignments().length
                            + " assignments provided.");
        }
        checkManual(state, request.assignments(), replicationFactor, current);
        return request.assignments();
    }

    /**
     * Refuses a name that is taken ({@link TopicExistsException}) or that differs from a topic's only in '.' against
     * '_' (INVALID_TOPIC_EXCEPTION: the two would share metric names), as Kafka's controller does before it looks at
     * the partitions. The broker checks the same on its copy of the state, which may not show a topic just created.
     */
    static void checkNameFree(ClusterState state, String name)
            throws TopicExistsException, InvalidAssignmentRequestException {
        TopicState existing = state.topic(name);
        if (existing != null) {
            throw new TopicExistsException(name, existing.id());
        }
        if (name.indexOf('.') < 0 && name.indexOf('_') < 0) {
            return;
        }
        String unified = name.replace('.', '_');
        for (TopicState t : state.topicsById().values()) {
            if (t.name().replace('.', '_').equals(unified)) {
                throw new InvalidAssignmentRequestException(
                        ReplicationError.INVALID_TOPIC_EXCEPTION,
                        "Topic '" + name + "' collides with existing topic: " + t.name());
            }
        }
    }

    /**
     * A new topic on replicas {@link #place placed} for it; the name is checked first ({@link #checkNameFree}), as
     * Kafka's controller answers TOPIC_ALREADY_EXISTS before looking at the counts.
     */
    static TopicState placedTopic(
            ClusterState state, String name, int partitions, int replicationFactor, Map<String, String> configs)
            throws TopicExistsException, InvalidAssignmentRequestException {
        checkNameFree(state, name);
        int[][] replicas = place(state, name, partitions, replicationFactor);
        return new TopicState(UUID.randomUUID(), name, configs, newPartitions(state, replicas, 0));
    }

    /** A new topic on a manual assignment: the name checked first ({@link #checkNameFree}), then the assignment. */
    static TopicState manualTopic(ClusterState state, String name, int[][] replicas, Map<String, String> configs)
            throws TopicExistsException, InvalidAssignmentRequestException {
        checkNameFree(state, name);
        if (replicas.length == 0) {
            throw invalid("The manual partition assignment has no partitions.");
        }
        checkManual(state, replicas, -1, 0);
        return new TopicState(UUID.randomUUID(), name, configs, newPartitions(state, replicas, 0));
    }

    /**
     * New partitions on {@code replicas}, numbered from {@code firstPartition}: empty everywhere, so every replica not
     * in controlled shutdown is in sync and the first of them leads; a broker in controlled shutdown stays out of the
     * ISR, as Kafka 3.9's controller keeps it. A partition with no other replica is refused (INVALID_REPLICA_ASSIGNMENT;
     * only a manual assignment can name such replicas, placement leaves those brokers out).
     */
    static PartitionState[] newPartitions(ClusterState state, int[][] replicas, int firstPartition)
            throws InvalidAssignmentRequestException {
        PartitionState[] ps = new PartitionState[replicas.length];
        for (int i = 0; i < replicas.length; i++) {
            int[] isr = Arrays.stream(replicas[i])
                    .filter(id -> !state.isShuttingDown(id))
                    .toArray();
            if (isr.length == 0) {
                throw invalid("All brokers specified in the manual partition assignment for partition "
                        + (firstPartition + i) + " are fenced or in controlled shutdown.");
            }
            ps[i] = new PartitionState(replicas[i].clone(), isr[0], 0, isr, 0);
        }
        return ps;
    }

    /**
     * Replicas for {@code partitions} partitions placed rack-aware over the live brokers not in controlled shutdown
     * (too few of them: INVALID_REPLICATION_FACTOR naming the counts; a partition count that is not positive or above
     * {@link TopicRecord#MAX_PARTITIONS}: INVALID_PARTITIONS); the rotation starts from the topic name, so a topic that
     * grows places its new partitions as if it had been created with them.
     */
    static int[][] place(ClusterState state, String topic, int partitions, int replicationFactor)
            throws InvalidAssignmentRequestException {
        if (partitions <= 0) {
            throw new InvalidAssignmentRequestException(
                    ReplicationError.INVALID_PARTITIONS,
                    "Number of partitions was set to an invalid non-positive value.");
        }
        if (partitions > TopicRecord.MAX_PARTITIONS) {
            // Checked before placing: the placement of a count this large would not fit in memory.
            throw new InvalidAssignmentRequestException(
                    ReplicationError.INVALID_PARTITIONS,
                    "Topic may have at most " + TopicRecord.MAX_PARTITIONS + " partitions, " + partitions
                            + " were asked for.");
        }
        List<PartitionAssigner.Candidate> candidates = new ArrayList<>(state.brokerCount());
        for (BrokerInfo b : state.brokers().values()) {
            candidates.add(new PartitionAssigner.Candidate(b.id(), b.rack(), state.isShuttingDown(b.id())));
        }
        try {
            return PartitionAssigner.assign(candidates, partitions, replicationFactor, topic.hashCode());
        } catch (InvalidAssignmentException e) {
            throw new InvalidAssignmentRequestException(ReplicationError.INVALID_REPLICATION_FACTOR, e.getMessage());
        }
    }

    /**
     * Checks a manual assignment as Kafka's controller does.
     *
     * @param replicationFactor the replica count every partition must have, -1 to take the first partition's
     * @param firstPartition    the number of the first partition assigned (for messages)
     */
    static void checkManual(ClusterState state, int[][] assignments, int replicationFactor, int firstPartition)
            throws InvalidAssignmentRequestException {
        int expected = replicationFactor;
        for (int i = 0; i < assignments.length; i++) {
            int[] replicas = assignments[i];
            int partition = firstPartition + i;
            if (replicas == null || replicas.length == 0) {
                throw invalid("The manual partition assignment includes an empty replica list.");
            }
            for (int r = 0; r < replicas.length; r++) {
                for (int before = 0; before < r; before++) {
                    if (replicas[before] == replicas[r]) {
                        throw invalid("The manual partition assignment specifies the same node id more than once: "
                                + Arrays.toString(replicas) + " for partition " + partition + ".");
                    }
                }
                if (!state.hasBroker(replicas[r])) {
                    throw invalid("The manual partition assignment includes broker " + replicas[r]
                            + ", but no such broker is registered.");
                }
            }
            if (expected == -1) {
                expected = replicas.length;
            } else if (replicas.length != expected) {
                throw invalid("The manual partition assignment includes the partition " + partition + " with "
                        + replicas.length + " replica(s), but this is not consistent with previous partitions, which "
                        + "have " + expected + " replica(s).");
            }
        }
    }

    private static InvalidAssignmentRequestException invalid(String message) {
        return new InvalidAssignmentRequestException(ReplicationError.INVALID_REPLICA_ASSIGNMENT, message);
    }
}
