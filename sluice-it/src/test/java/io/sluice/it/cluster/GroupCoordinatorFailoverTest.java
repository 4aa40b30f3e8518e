package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Poll;
import io.sluice.testkit.cluster.ProcessCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * Group state survives the loss of its coordinator, brokers in their own JVMs: a consumer group commits offsets,
 * the broker coordinating it (the leader of the group's {@code __consumer_offsets} partition, replication factor 3)
 * is SIGKILLed, and within the ZooKeeper session timeout plus slack the group is served by the partition's new
 * leader with its committed offsets intact; the consumer commits on, and a new member resumes exactly where the group
 * committed: no record before the committed offset is read again, none after it is skipped.
 */
class GroupCoordinatorFailoverTest extends ClusterTestBase {
    private static final String TOPIC = "orders";
    private static final String GROUP = "billing";
    private static final int PARTITIONS = 3;
    private static final int RECORDS_PER_PARTITION = 100;
    private static final int OFFSETS_PARTITIONS = 6;
    private static final int SESSION_TIMEOUT_MS = 6000;
    private static final Duration PROBE = Duration.ofSeconds(5);

    @Override
    List<String> brokerOverrides() {
        return List.of(
                "offsets.topic.num.partitions=" + OFFSETS_PARTITIONS,
                "group.initial.rebalance.delay.ms=300",
                "group.min.session.timeout.ms=" + SESSION_TIMEOUT_MS,
                "replica.lag.time.max.ms=6000",
                "replica.fetch.wait.max.ms=200",
                "controlled.shutdown.retry.backoff.ms=500");
    }

    @Test
    void shouldServeTheGroupFromTheNewLeaderWithItsCommittedOffsetsWhenTheCoordinatorIsKilled() throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            admin.createTopics(List.of(
                            new NewTopic(TOPIC, PARTITIONS, (short) 3).configs(Map.of("min.insync.replicas", "2"))))
                    .all()
                    .get(60, TimeUnit.SECONDS);
            produceRecords();
            Map<TopicPartition, OffsetAndMetadata> beforeKill = offsets(30, 50, 70, "before");
            Map<TopicPartition, OffsetAndMetadata> afterKill = offsets(60, 80, 90, "after");
            int offsetsPartition = Utils.abs(GROUP.hashCode()) % OFFSETS_PARTITIONS;

            try (KafkaConsumer<String, String> member =
                    ClusterClients.groupConsumer(cluster.bootstrap(), GROUP, SESSION_TIMEOUT_MS)) {
                member.subscribe(List.of(TOPIC));
                Poll.until(
                        "the member owns every partition",
                        SETTLE,
                        () -> {
                            member.poll(Duration.ofMillis(100));
                            return member.assignment().size();
                        },
                        n -> n == PARTITIONS);
                awaitFullIsr(admin, offsetsPartition);
                member.commitSync(beforeKill, SETTLE);
                assertEquals(beforeKill, committed(admin));

                int coordinator = coordinatorOf(admin);
                assertEquals(
                        coordinator,
                        leaderOf(admin, offsetsPartition),
                        "the leader of __consumer_offsets-" + offsetsPartition + " coordinates the group");
                cluster.broker(coordinator).kill9();
                long killedAt = System.nanoTime();

                Map<TopicPartition, OffsetAndMetadata> served = Poll.until(
                        "the group's committed offsets from a new " + "coordinator after broker " + coordinator
                                + " was killed",
                        cluster.sessionTimeout().plus(ProcessCluster.ELECTION_SLACK),
                        () -> committed(admin),
                        beforeKill::equals);
                System.out.printf(
                        Locale.ROOT,
                        "group %s served again %d ms after its coordinator was killed%n",
                        GROUP,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt));
                assertEquals(beforeKill, served, "every committed offset intact");
                assertNotEquals(coordinator, coordinatorOf(admin));

                commitThroughFailover(member, afterKill);
                assertEquals(afterKill, committed(admin), "commits go on with the new coordinator");
            }
            assertResumesAt(afterKill);
        }
    }

    private void produceRecords() throws Exception {
        try (KafkaProducer<String, String> producer = ClusterClients.idempotentProducer(cluster.bootstrap())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                for (int i = 0; i < RECORDS_PER_PARTITION; i++) {
                    acks.add(producer.send(new ProducerRecord<>(TOPIC, p, "k" + i, valueOf(p, i))));
                }
            }
            producer.flush();
            for (Future<RecordMetadata> ack : acks) {
                ack.get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static String valueOf(int partition, long offset) {
        return "p" + partition + "-" + offset;
    }

    private static Map<TopicPartition, OffsetAndMetadata> offsets(long p0, long p1, long p2, String metadata) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        long[] values = {p0, p1, p2};
        for (int p = 0; p < PARTITIONS; p++) {
            offsets.put(new TopicPartition(TOPIC, p), new OffsetAndMetadata(values[p], metadata));
        }
        return offsets;
    }

    /** The member keeps polling through the failover; its commit succeeds once the new coordinator serves it. */
    private void commitThroughFailover(
            KafkaConsumer<String, String> member, Map<TopicPartition, OffsetAndMetadata> offsets)
            throws InterruptedException {
        Poll.until(
                "a commit through the new coordinator",
                SETTLE,
                () -> {
                    member.poll(Duration.ofMillis(100));
                    try {
                        member.commitSync(offsets, PROBE);
                        return true;
                    } catch (CommitFailedException | RebalanceInProgressException | RetriableException e) {
                        return false; // the member rejoined meanwhile, or the coordinator is still moving: poll and
                        // retry
                    }
                },
                done -> done);
    }

    /** A new member of the group reads each partition from its committed offset to the end, every record once. */
    private void assertResumesAt(Map<TopicPartition, OffsetAndMetadata> committed) throws InterruptedException {
        Map<Integer, List<Long>> read = new TreeMap<>();
        try (KafkaConsumer<String, String> member =
                ClusterClients.groupConsumer(cluster.bootstrap(), GROUP, SESSION_TIMEOUT_MS)) {
            member.subscribe(List.of(TOPIC));
            Poll.until(
                    "the new member reads to the end of every partition",
                    SETTLE,
                    () -> {
                        for (ConsumerRecord<String, String> record : member.poll(Duration.ofMillis(200))) {
                            assertEquals(valueOf(record.partition(), record.offset()), record.value());
                            read.computeIfAbsent(record.partition(), p -> new ArrayList<>())
                                    .add(record.offset());
                        }
                        return read.values().stream().mapToInt(List::size).sum();
                    },
                    n -> n >= expectedCount(committed));
        }
        for (int p = 0; p < PARTITIONS; p++) {
            long from = committed.get(new TopicPartition(TOPIC, p)).offset();
            List<Long> expected = new ArrayList<>();
            for (long offset = from; offset < RECORDS_PER_PARTITION; offset++) {
                expected.add(offset);
            }
            assertEquals(
                    expected,
                    read.getOrDefault(p, List.of()),
                    "partition " + p + " resumes at " + from
                            + ": nothing before it read again, nothing after it skipped, nothing twice");
        }
    }

    private static int expectedCount(Map<TopicPartition, OffsetAndMetadata> committed) {
        int count = 0;
        for (OffsetAndMetadata offset : committed.values()) {
            count += RECORDS_PER_PARTITION - (int) offset.offset();
        }
        return count;
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin) throws Exception {
        return admin.listConsumerGroupOffsets(GROUP, new ListConsumerGroupOffsetsOptions().timeoutMs(probeMs()))
                .partitionsToOffsetAndMetadata()
                .get(PROBE.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The admin call itself ends with the probe: a call only the future gave up on would stay pending against the
     * killed coordinator for the client's default API timeout (60 s), and closing the admin client waits for it.
     */
    private static int probeMs() {
        return (int) PROBE.toMillis();
    }

    private static int coordinatorOf(Admin admin) throws Exception {
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(GROUP))
                .describedGroups()
                .get(GROUP)
                .get(60, TimeUnit.SECONDS);
        return group.coordinator().id();
    }

    private static TopicPartitionInfo offsetsPartition(Admin admin, int partition) throws Exception {
        TopicDescription offsets = admin.describeTopics(
                        List.of(Topic.GROUP_METADATA_TOPIC_NAME), new DescribeTopicsOptions().timeoutMs(probeMs()))
                .allTopicNames()
                .get(PROBE.toMillis(), TimeUnit.MILLISECONDS)
                .get(Topic.GROUP_METADATA_TOPIC_NAME);
        assertTrue(offsets.isInternal());
        return offsets.partitions().get(partition);
    }

    private static int leaderOf(Admin admin, int partition) throws Exception {
        return offsetsPartition(admin, partition).leader().id();
    }

    /** Every replica of the group's partition is in sync before the commit, so the commit is on all three. */
    private void awaitFullIsr(Admin admin, int partition) throws InterruptedException {
        Poll.until(
                "three in-sync replicas of __consumer_offsets-" + partition,
                SETTLE,
                () -> offsetsPartition(admin, partition),
                p -> p.replicas().size() == BROKERS && p.isr().size() == BROKERS);
    }
}
