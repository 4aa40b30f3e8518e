package io.sluice.cli.rebalance;

import io.sluice.cli.CommandFailedException;
import io.sluice.cluster.assign.RebalancePlanner.Broker;
import io.sluice.cluster.assign.RebalancePlanner.PartitionReplicas;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;

/**
 * What a rebalance plan starts from, read through Kafka's Admin API: the live brokers with their racks
 * (DescribeCluster; a mix of brokers with and without a rack is refused unless racks are ignored, see
 * {@link #brokersOf}), every topic's replicas and in-sync replicas, internal topics included (Metadata), the
 * reassignments in progress (ListPartitionReassignments: a moving partition is described as its target plus the
 * replicas it removes, so it is planned from its target and marked moving), each partition's size, the largest copy
 * any live broker reports (DescribeLogDirs), and each topic's effective {@code segment.bytes} (DescribeConfigs of the
 * topics: its override, else the broker default), which sets the least gap worth balancing. Immutable once read.
 *
 * <p>A live broker that does not answer DescribeLogDirs within the broker timeout (hung, paused, overloaded) fails the
 * read, naming it: its sizes are needed to weigh it, and moves onto it would not complete. Only a broker being removed
 * may stay silent, when every partition it holds has a copy on a broker that answered (whose size stands in): emptying
 * a sick broker is what an operator runs the command for.
 *
 * <p>Any broker may answer Metadata, from a view that can trail the controller's by a moment: a move that just
 * completed may still be described as its target plus the replicas it removed, which planned from would add a
 * replica. The assignment is therefore read again, {@link #SETTLE_POLL} apart, until two readings in a row agree
 * (at most {@link #MAX_ASSIGNMENT_READS} readings; the waves check each partition again before they move it).
 *
 * @param brokers            live brokers, by id
 * @param partitions         every partition, topics and partitions in order
 * @param reassigning        the reassignments in progress when the inputs were read
 * @param topicSegmentBytes  each topic's effective {@code segment.bytes}, where it could be read
 * @param brokerSegmentBytes {@code log.segment.bytes} of a live broker, Kafka's default when it cannot be read: the
 *                           segment of a topic whose configuration could not be read
 * @param notes              what the operator should know about how the inputs were read
 */
record RebalanceInputs(
        List<Broker> brokers,
        List<PartitionReplicas> partitions,
        Map<TopicPartition, PartitionReassignment> reassigning,
        Map<String, Long> topicSegmentBytes,
        long brokerSegmentBytes,
        List<String> notes) {
    static final String SEGMENT_BYTES_KEY = "log.segment.bytes";
    static final String TOPIC_SEGMENT_BYTES_KEY = "segment.bytes";
    /** Kafka's default {@code log.segment.bytes}. */
    static final long DEFAULT_SEGMENT_BYTES = 1L << 30;
    /** Time between two readings of the assignment. */
    static final Duration SETTLE_POLL = Duration.ofMillis(500);
    /** Readings of the assignment at most, waiting for two in a row to agree. */
    static final int MAX_ASSIGNMENT_READS = 6;

    /**
     * @param removing      the brokers the plan empties: the only ones that may stay silent
     * @param brokerTimeout how long each broker is given to answer DescribeLogDirs and DescribeConfigs
     * @throws CommandFailedException when a live broker does not answer in time and its sizes are needed
     */
    static RebalanceInputs read(Admin admin, Set<Integer> removing, Duration brokerTimeout, boolean ignoreRacks)
            throws ExecutionException, InterruptedException {
        Collection<Node> nodes = admin.describeCluster().nodes().get();
        List<Broker> brokers = brokersOf(nodes, removing, ignoreRacks);
        List<Integer> ids = nodes.stream().map(Node::id).toList();
        ReplicaSizes sizes = ReplicaSizes.read(admin, ids, brokerTimeout);
        Assignment assignment = Assignment.readSettled(admin, SETTLE_POLL, MAX_ASSIGNMENT_READS);
        List<PartitionReplicas> partitions = new ArrayList<>();
        for (TopicDescription topic : assignment.topics().values()) {
            for (TopicPartitionInfo p : topic.partitions()) {
                TopicPartition tp = new TopicPartition(topic.name(), p.partition());
                partitions.add(partitionOf(
                        tp,
                        p,
                        sizes.bytes().getOrDefault(tp, 0L),
                        assignment.reassigning().get(tp)));
            }
        }
        List<String> notes = new ArrayList<>();
        if (!sizes.silent().isEmpty()) {
            notes.add(sizes.requireOnlyRemovedSilent(removing, partitions, brokerTimeout));
        }
        List<Integer> answered =
                ids.stream().filter(id -> !sizes.silent().containsKey(id)).toList();
        return new RebalanceInputs(
                brokers,
                List.copyOf(partitions),
                assignment.reassigning(),
                topicSegmentBytes(admin, assignment.topics().keySet(), brokerTimeout),
                segmentBytes(admin, answered, brokerTimeout),
                List.copyOf(notes));
    }

    /**
     * The live brokers as the planner sees them, with their racks, or all on one unnamed rack when {@code ignoreRacks}
     * or when no broker has a rack.
     *
     * @throws CommandFailedException when some of the brokers the plan keeps (those not in {@code removing}) have a
     *     rack and others do not, as Kafka's reassignment tool refuses it: counted as a rack of its own, the brokers
     *     without one would draw a replica of every partition (a rack the partition does not use yet); a broker being
     *     removed receives no replica, so its rack does not matter
     */
    static List<Broker> brokersOf(Collection<Node> nodes, Set<Integer> removing, boolean ignoreRacks) {
        if (!ignoreRacks) {
            List<Integer> withoutRack = new ArrayList<>();
            boolean anyRack = false;
            for (Node n : nodes) {
                if (removing.contains(n.id())) {
                    continue;
                }
                if (n.hasRack()) {
                    anyRack = true;
                } else {
                    withoutRack.add(n.id());
                }
            }
            if (anyRack && !withoutRack.isEmpty()) {
                throw new CommandFailedException("not all brokers have a rack: broker(s) " + withoutRack
                        + " have no broker.rack while others have one; set broker.rack on every broker, or add"
                        + " --disable-rack-aware to plan without racks");
            }
        }
        List<Broker> brokers = new ArrayList<>();
        for (Node n : nodes) {
            brokers.add(new Broker(n.id(), ignoreRacks || !n.hasRack() ? "" : n.rack()));
        }
        return List.copyOf(brokers);
    }

    /** The effective {@code segment.bytes} of {@code topic}: its own, else the broker's. */
    long segmentBytesOf(String topic) {
        return topicSegmentBytes.getOrDefault(topic, brokerSegmentBytes);
    }

    /**
     * A partition as the planner sees it: its replicas and ISR, or, when {@code moving} is not null, its
     * reassignment's target.
     */
    static PartitionReplicas partitionOf(
            TopicPartition tp, TopicPartitionInfo p, long size, PartitionReassignment moving) {
        if (moving != null) {
            return new PartitionReplicas(tp.topic(), tp.partition(), target(moving), size, true);
        }
        int[] replicas = p.replicas().stream().mapToInt(Node::id).toArray();
        int[] isr = p.isr().stream().mapToInt(Node::id).toArray();
        return new PartitionReplicas(tp.topic(), tp.partition(), replicas, isr, size, false);
    }

    /** Where a reassignment in progress takes its partition: its replicas without the ones it removes. */
    static int[] target(PartitionReassignment moving) {
        Set<Integer> removing = Set.copyOf(moving.removingReplicas());
        return moving.replicas().stream()
                .filter(id -> !removing.contains(id))
                .mapToInt(Integer::intValue)
                .toArray();
    }

    /** The reassignments in progress that take a replica off one of {@code brokers}. */
    List<TopicPartition> movingOff(Set<Integer> brokers) {
        return reassigning.entrySet().stream()
                .filter(e -> e.getValue().removingReplicas().stream().anyMatch(brokers::contains))
                .map(Map.Entry::getKey)
                .sorted((a, b) -> a.toString().compareTo(b.toString()))
                .toList();
    }

    /** Each topic's effective {@code segment.bytes}; a topic whose configuration cannot be read is left out. */
    private static Map<String, Long> topicSegmentBytes(Admin admin, Collection<String> topics, Duration timeout)
            throws InterruptedException {
        Map<String, Long> segmentBytes = new HashMap<>();
        if (topics.isEmpty()) {
            return segmentBytes;
        }
        List<ConfigResource> resources = topics.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t))
                .toList();
        for (Map.Entry<ConfigResource, KafkaFuture<Config>> e : admin.describeConfigs(
                        resources, new DescribeConfigsOptions().timeoutMs(millis(timeout)))
                .values()
                .entrySet()) {
            try {
                Long value = longValue(e.getValue().get(), TOPIC_SEGMENT_BYTES_KEY);
                if (value != null) {
                    segmentBytes.put(e.getKey().name(), value);
                }
            } catch (ExecutionException gone) {
                // deleted since it was listed, or not readable: the broker default stands in
            }
        }
        return segmentBytes;
    }

    /** {@code log.segment.bytes} of the first of {@code brokers} (brokers that answered DescribeLogDirs). */
    private static long segmentBytes(Admin admin, List<Integer> brokers, Duration timeout) throws InterruptedException {
        if (brokers.isEmpty()) {
            return DEFAULT_SEGMENT_BYTES;
        }
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(brokers.get(0)));
        try {
            Long value = longValue(
                    admin.describeConfigs(List.of(broker), new DescribeConfigsOptions().timeoutMs(millis(timeout)))
                            .all()
                            .get()
                            .get(broker),
                    SEGMENT_BYTES_KEY);
            return value == null ? DEFAULT_SEGMENT_BYTES : value;
        } catch (ExecutionException e) {
            return DEFAULT_SEGMENT_BYTES;
        }
    }

    static int millis(Duration timeout) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
    }

    /** The value of {@code key} in {@code config} as a number, or null when absent or not a number. */
    private static Long longValue(Config config, String key) {
        ConfigEntry entry = config == null ? null : config.get(key);
        if (entry == null || entry.value() == null) {
            return null;
        }
        try {
            return Long.parseLong(entry.value());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
