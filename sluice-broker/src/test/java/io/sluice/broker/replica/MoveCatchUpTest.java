package io.sluice.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.cluster.ZooKeeperBrokers;
import io.sluice.testkit.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end of a move does not wait out a long poll: broker 2 follows another partition on broker 1 with a Fetch that
 * the leader holds for {@code replica.fetch.wait.max.ms} (a minute here) when there is nothing new. A partition moved
 * from broker 1 to broker 2 is caught up on a connection of its own after its files are in, so the reassignment
 * completes well inside that minute; without it, the new replica would join the shared fetcher's next Fetch only when
 * the one in flight comes back. Two brokers in this JVM on one ZooKeeper.
 *
 * <p>Not thread-safe; a test.
 */
class MoveCatchUpTest {
    /** Far above what a move of a few segments takes, far below the follower's long poll. */
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static final String LONG_POLL_MS = "60000";
    private static final int RECORDS = 100;

    @TempDir
    Path dir;

    private ZooKeeperBrokers cluster;
    private SluiceBroker first;
    private SluiceBroker second;

    @AfterEach
    void stop() {
        for (SluiceBroker broker : new SluiceBroker[] {second, first}) {
            if (broker != null) {
                broker.close();
            }
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldCompleteAMoveWhileTheFollowerLongPollsAnotherPartitionOnTheSameLeader() throws Exception {
        cluster = new ZooKeeperBrokers(dir, "catch-up");
        first = cluster.start(1, Map.of("replica.fetch.wait.max.ms", LONG_POLL_MS));
        Poll.until(
                "broker 1 to become controller",
                WAIT,
                () -> first.membership().node().isController(),
                c -> c);
        second = cluster.start(2, Map.of("replica.fetch.wait.max.ms", LONG_POLL_MS));
        Properties adminProps = new Properties();
        adminProps.put(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + first.boundAddress().getPort());
        try (Admin admin = Admin.create(adminProps)) {
            admin.createTopics(List.of(
                            new NewTopic("parked", Map.of(0, List.of(1, 2))),
                            new NewTopic("moving", Map.of(0, List.of(1))).configs(Map.of("segment.bytes", "16384"))))
                    .all()
                    .get();
            Properties producerProps = new Properties();
            producerProps.put(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    "127.0.0.1:" + first.boundAddress().getPort());
            producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
            try (KafkaProducer<byte[], byte[]> producer =
                    new KafkaProducer<>(producerProps, new ByteArraySerializer(), new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>("parked", 0, null, new byte[] {1}))
                        .get();
                for (int i = 0; i < RECORDS; i++) {
                    producer.send(new ProducerRecord<>("moving", 0, null, new byte[1000]))
                            .get();
                }
            }
            // Broker 2 is in sync on `parked`: its fetcher towards broker 1 now waits in the leader's long poll.
            Poll.until("broker 2 in the ISR of parked-0", WAIT, () -> isr(admin, "parked"), isr -> isr.size() == 2);

            admin.alterPartitionReassignments(Map.of(
                            new TopicPartition("moving", 0), Optional.of(new NewPartitionReassignment(List.of(2)))))
                    .all()
                    .get();
            Poll.until(
                    "the move of moving-0 to broker 2 to complete (a " + LONG_POLL_MS + " ms long poll is in flight)",
                    WAIT,
                    () -> admin.listPartitionReassignments()
                                    .reassignments()
                                    .get()
                                    .isEmpty()
                            && isr(admin, "moving").equals(List.of(2)),
                    done -> done);
            TopicPartition moved = new TopicPartition("moving", 0);
            long end = admin.listOffsets(Map.of(moved, OffsetSpec.latest()))
                    .partitionResult(moved)
                    .get()
                    .offset();
            assertEquals(RECORDS, end, "the new replica leads with every record");
        }
    }

    private static List<Integer> isr(Admin admin, String topic) throws Exception {
        TopicDescription description =
                admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
        return description.partitions().get(0).isr().stream().map(n -> n.id()).toList();
    }
}
