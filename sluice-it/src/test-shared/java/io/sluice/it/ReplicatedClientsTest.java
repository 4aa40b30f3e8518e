package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Kcat;
import io.sluice.testkit.Poll;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.cluster.ProcessCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * This module's kafka-clients (3.9 in sluice-it, 4.x in sluice-it-clients4) and kcat against three brokers in their
 * own JVMs, on topics with replication factor 3 and min.insync.replicas=2: the Java producer (idempotent, acks=all by
 * default) keeps writing across a leader's controlled shutdown and return, and the consumer reads every record once,
 * intact and in order; kcat produces with acks=all and consumes back what it wrote.
 */
class ReplicatedClientsTest {
    private static final int BROKERS = 3;
    private static final short REPLICATION_FACTOR = 3;
    private static final int PARTITIONS = 3;
    private static final int RECORDS_PER_ROUND = 600;
    private static final Duration SETTLE = Duration.ofSeconds(60);
    private static final Map<String, String> MIN_INSYNC = Map.of("min.insync.replicas", "2");

    @TempDir
    static Path work;

    static ProcessCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = ProcessCluster.start(
                work,
                BROKERS,
                ProcessCluster.TEST_SESSION_TIMEOUT,
                "replica.fetch.wait.max.ms=200",
                "controlled.shutdown.retry.backoff.ms=500",
                "auto.leader.rebalance.enable=false");
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
            cluster.keepLogs(TestBroker.KEPT_LOGS, ReplicatedClientsTest.class.getSimpleName());
        }
    }

    @Test
    void shouldProduceAndConsumeEveryRecordAcrossALeadersControlledShutdown() throws Exception {
        String topic = "java-rf3";
        createAndAwaitFullIsr(topic, PARTITIONS);
        try (KafkaProducer<byte[], byte[]> producer = TestClients.producer(cluster.bootstrap(), "lz4")) {
            produceRound(producer, topic, 0);
            int leader = describe(topic).partitions().get(0).leader().id();
            cluster.broker(leader).stop();
            Poll.until(
                    "partition 0 of " + topic + " led by another broker",
                    SETTLE,
                    () -> describe(topic).partitions().get(0),
                    p -> p.leader() != null
                            && !p.leader().isEmpty()
                            && p.leader().id() != leader);
            produceRound(producer, topic, 1);
            cluster.broker(leader).restart();
            awaitFullIsr(topic);
            produceRound(producer, topic, 2);
        }
        try (KafkaConsumer<byte[], byte[]> consumer = TestClients.consumer(cluster.bootstrap())) {
            Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> byPartition =
                    PartitionReader.readAll(consumer, PartitionReader.partitions(topic, PARTITIONS), SETTLE);
            for (int p = 0; p < PARTITIONS; p++) {
                List<ConsumerRecord<byte[], byte[]>> read = byPartition.get(new TopicPartition(topic, p));
                assertEquals(3 * RECORDS_PER_ROUND / PARTITIONS, read.size(), "records in partition " + p);
                long expected = p;
                for (ConsumerRecord<byte[], byte[]> record : read) {
                    TestRecords.assertIntact(record, topic, expected);
                    expected += PARTITIONS;
                }
            }
        }
    }

    @Test
    void shouldProduceAndConsumeWithKcat() throws Exception {
        Assumptions.assumeTrue(Kcat.isInstalled(), Kcat.NOT_INSTALLED);
        String topic = "kcat-rf3";
        createAndAwaitFullIsr(topic, 1);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < RECORDS_PER_ROUND; i++) {
            lines.add("key-" + i + Kcat.KEY_DELIMITER + "value-" + i + "-" + "x".repeat(i % 50));
        }
        Kcat kcat = new Kcat(cluster.bootstrap());
        ProcessResult produced = kcat.produce(topic, "zstd", lines);
        assertTrue(produced.succeeded(), produced::describe);
        ProcessResult consumed = kcat.consumeAll(topic, 0);
        assertTrue(consumed.succeeded(), consumed::describe);
        assertEquals(lines, consumed.stdoutLines(), consumed::describe);
        awaitFullIsr(topic);
    }

    /** Sends records {@code round*N .. round*N+N-1}, record i to partition i % PARTITIONS, and waits for every ack. */
    private static void produceRound(KafkaProducer<byte[], byte[]> producer, String topic, int round) throws Exception {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (long i = (long) round * RECORDS_PER_ROUND; i < (round + 1L) * RECORDS_PER_ROUND; i++) {
            acks.add(producer.send(TestRecords.record(topic, (int) (i % PARTITIONS), topic, i)));
        }
        producer.flush();
        for (Future<RecordMetadata> ack : acks) {
            ack.get(SETTLE.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static void createAndAwaitFullIsr(String topic, int partitions) throws Exception {
        try (Admin admin = TestClients.admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, REPLICATION_FACTOR).configs(MIN_INSYNC)))
                    .all()
                    .get(SETTLE.toMillis(), TimeUnit.MILLISECONDS);
        }
        awaitFullIsr(topic);
    }

    /** Waits until every partition of {@code topic} has a leader and all replicas in its ISR, as the Admin sees it. */
    private static void awaitFullIsr(String topic) throws Exception {
        Poll.until(
                "every partition of " + topic + " with a leader and " + REPLICATION_FACTOR + " replicas in sync",
                SETTLE.multipliedBy(2),
                () -> describe(topic),
                d -> d.partitions().stream().allMatch(ReplicatedClientsTest::fullyInSync));
    }

    private static boolean fullyInSync(TopicPartitionInfo p) {
        return p.leader() != null && !p.leader().isEmpty() && p.isr().size() == REPLICATION_FACTOR;
    }

    private static TopicDescription describe(String topic) throws Exception {
        try (Admin admin = TestClients.admin(cluster.bootstrap())) {
            return admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(SETTLE.toMillis(), TimeUnit.MILLISECONDS)
                    .get(topic);
        }
    }
}
