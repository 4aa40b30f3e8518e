package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.testkit.PartitionDirectory;
import io.sluice.testkit.Poll;
import io.sluice.testkit.cluster.ProcessCluster;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.zip.CRC32;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * Partition 0 of a one-partition topic replicated on every broker of a {@link ProcessCluster}: created through the
 * Admin API, watched through the cluster state the test's probe follows (leader, leader epoch, ISR, partition epoch
 * exactly as the controller published them), read back with a consumer, and compared replica against replica on
 * disk.
 *
 * <p>Not thread-safe; one per test, driven by the test thread.
 */
final class ReplicatedPartition {
    /** Bound on every wait for the cluster to converge; only a failure waits this long. */
    static final Duration SETTLE = ClusterTestBase.SETTLE;

    private final ProcessCluster cluster;
    private final String topic;

    private ReplicatedPartition(ProcessCluster cluster, String topic) {
        this.cluster = cluster;
        this.topic = topic;
    }

    /**
     * Creates {@code topic} with one partition on every broker of {@code cluster}, with {@code configs}, and waits
     * until its leader is live and every replica is in sync.
     */
    static ReplicatedPartition create(ProcessCluster cluster, String topic, Map<String, String> configs)
            throws Exception {
        return create(cluster, topic, cluster.brokerIds().size(), configs);
    }

    /** Like {@link #create(ProcessCluster, String, Map)}, on {@code replicationFactor} of the brokers. */
    static ReplicatedPartition create(
            ProcessCluster cluster, String topic, int replicationFactor, Map<String, String> configs) throws Exception {
        return created(cluster, new NewTopic(topic, 1, (short) replicationFactor).configs(configs));
    }

    /** Like {@link #create(ProcessCluster, String, Map)}, on brokers {@code replicas} in that order. */
    static ReplicatedPartition createOn(
            ProcessCluster cluster, String topic, List<Integer> replicas, Map<String, String> configs)
            throws Exception {
        return created(cluster, new NewTopic(topic, Map.of(0, replicas)).configs(configs));
    }

    private static ReplicatedPartition created(ProcessCluster cluster, NewTopic topic) throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            admin.createTopics(List.of(topic)).all().get(ClusterClients.REQUEST_TIMEOUT_MS * 3L, TimeUnit.MILLISECONDS);
        }
        ReplicatedPartition partition = new ReplicatedPartition(cluster, topic.name());
        partition.awaitFullIsr();
        return partition;
    }

    String topic() {
        return topic;
    }

    TopicPartition topicPartition() {
        return new TopicPartition(topic, 0);
    }

    Uuid topicId() throws Exception {
        TopicState state = cluster.probe().state().topic(topic);
        return new Uuid(state.id().getMostSignificantBits(), state.id().getLeastSignificantBits());
    }

    /** The partition as the newest cluster state the probe applied has it; null before the topic exists there. */
    PartitionState state() throws Exception {
        TopicState state = cluster.probe().state().topic(topic);
        return state == null ? null : state.partition(0);
    }

    /** Waits until the published partition satisfies {@code done}; fails naming {@code what} and the last state. */
    PartitionState awaitState(String what, Predicate<PartitionState> done) throws Exception {
        return awaitState(what, SETTLE, (cluster, p) -> done.test(p));
    }

    /** Like {@link #awaitState(String, Predicate)}, also seeing the rest of the cluster state (live brokers). */
    PartitionState awaitState(String what, Duration timeout, StateCondition done) throws Exception {
        ClusterState state = cluster.probe().awaitState(what + " (" + topic + "-0)", timeout, s -> {
            TopicState t = s.topic(topic);
            return t != null && done.test(s, t.partition(0));
        });
        return state.topic(topic).partition(0);
    }

    /** A condition on the published partition and the cluster state it is part of. */
    @FunctionalInterface
    interface StateCondition {
        boolean test(ClusterState cluster, PartitionState partition);
    }

    /** Waits until a live leader and every replica in the ISR are published; returns that state. */
    PartitionState awaitFullIsr() throws Exception {
        return awaitState(
                "a live leader and every replica in sync",
                SETTLE.multipliedBy(2),
                (s, p) -> !p.isOffline() && s.hasBroker(p.leader()) && p.isr().length == p.replicas().length);
    }

    /**
     * Waits until the ISR is full again after a change to it: a live leader, every replica in sync, and a partition
     * epoch past {@code previous}'s (so a replica that left has come back, not merely not been dropped yet).
     */
    PartitionState awaitFullIsrAfter(PartitionState previous) throws Exception {
        return awaitState(
                "every replica in sync again after partition epoch " + previous.partitionEpoch(),
                SETTLE.multipliedBy(2),
                (s, p) -> !p.isOffline()
                        && s.hasBroker(p.leader())
                        && p.isr().length == p.replicas().length
                        && p.partitionEpoch() > previous.partitionEpoch());
    }

    /** Waits until a broker other than {@code previous} leads in a newer leader epoch; returns that state. */
    PartitionState awaitNewLeader(PartitionState previous) throws Exception {
        return awaitState(
                "a leader other than broker " + previous.leader() + " after epoch " + previous.leaderEpoch(),
                cluster.sessionTimeout().plus(ProcessCluster.ELECTION_SLACK),
                (s, p) ->
                        !p.isOffline() && p.leader() != previous.leader() && p.leaderEpoch() > previous.leaderEpoch());
    }

    /** The partition's replicas other than its current leader, in replica order. */
    List<Integer> followers(PartitionState state) {
        return Arrays.stream(state.replicas())
                .filter(id -> id != state.leader())
                .boxed()
                .toList();
    }

    /** Whether broker {@code brokerId} holds a directory for the partition (a deleted one is renamed away). */
    boolean hasCopyOn(int brokerId) {
        return Files.isDirectory(new PartitionDirectory(cluster.brokerDir(brokerId), topic, 0).dir());
    }

    /** Every record from the beginning to the end offset the live brokers report, read with a fresh consumer. */
    List<ConsumerRecord<String, String>> readAll() {
        try (KafkaConsumer<String, String> consumer = ClusterClients.assignConsumer(cluster.bootstrap())) {
            return KeyedRecords.readAll(consumer, List.of(topicPartition()), SETTLE);
        }
    }

    /** Every broker's copy of the partition on disk: its segment files' bytes, concatenated in offset order. */
    Copies replicaCopies() throws Exception {
        return replicaCopies(cluster.brokerIds());
    }

    /** The copies of brokers {@code brokerIds}. */
    Copies replicaCopies(List<Integer> brokerIds) throws Exception {
        Map<Integer, byte[]> copies = new TreeMap<>();
        for (int id : brokerIds) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (Path segment : new PartitionDirectory(cluster.brokerDir(id), topic, 0).segments()) {
                bytes.write(Files.readAllBytes(segment));
            }
            copies.put(id, bytes.toByteArray());
        }
        return new Copies(copies);
    }

    /** Broker id → the bytes of its copy; described by length and CRC-32 in failure messages. */
    record Copies(Map<Integer, byte[]> bytes) {
        boolean identical() {
            byte[] first = bytes.values().iterator().next();
            return bytes.values().stream().allMatch(copy -> Arrays.equals(first, copy));
        }

        @Override
        public String toString() {
            StringBuilder out = new StringBuilder();
            for (Map.Entry<Integer, byte[]> copy : bytes.entrySet()) {
                CRC32 crc = new CRC32();
                crc.update(copy.getValue());
                out.append("broker ")
                        .append(copy.getKey())
                        .append(": ")
                        .append(copy.getValue().length)
                        .append(" bytes, crc ")
                        .append(Long.toHexString(crc.getValue()))
                        .append("; ");
            }
            return out.toString();
        }
    }

    /**
     * Waits until every broker's copy of the partition holds the same bytes (same batches at the same offsets, stamped
     * with the same leader epochs), and asserts that it is not empty.
     */
    void awaitIdenticalReplicas() throws Exception {
        awaitIdenticalReplicas(cluster.brokerIds());
    }

    /** Like {@link #awaitIdenticalReplicas()}, for the copies of brokers {@code brokerIds} only. */
    void awaitIdenticalReplicas(List<Integer> brokerIds) throws Exception {
        Copies copies = Poll.until(
                "the replicas of " + topic + "-0 on brokers " + brokerIds + " to be byte-identical on disk",
                SETTLE,
                () -> replicaCopies(brokerIds),
                Copies::identical);
        assertTrue(copies.bytes().values().iterator().next().length > 0, "the partition holds records");
    }
}
