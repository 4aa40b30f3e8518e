package io.sluice.broker.metrics;

import static io.sluice.broker.metrics.BrokerMetricsEndToEndTest.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.cluster.ZooKeeperBrokers;
import io.sluice.testkit.Poll;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two brokers in this JVM on one ZooKeeper, read through each one's Prometheus scrape (JMX shows only the first
 * broker of a JVM): follower fetches count as FetchFollower and not as bytes out; the controller's gauges are the
 * controller's; a follower held back by a replication throttle leaves the leader's ISR (IsrShrinksPerSec,
 * UnderReplicatedPartitions) and rejoins once the throttle goes (IsrExpandsPerSec); a broker that stops leaves the
 * other one leading both partitions under-replicated.
 */
class ReplicatedMetricsTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String TOPIC = "replicated";
    private static final int RECORDS = 10;

    @TempDir
    Path dir;

    private ZooKeeperBrokers cluster;
    private SluiceBroker first;
    private SluiceBroker second;
    private final HttpClient http = HttpClient.newHttpClient();

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

    private SluiceBroker start(int id) throws Exception {
        return cluster.start(id, Map.of("sluice.http.listener", "0", "replica.lag.time.max.ms", "1000"));
    }

    private String scrape(SluiceBroker broker) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(
                                "http://127.0.0.1:" + broker.httpAddress().getPort() + "/metrics"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        return response.body();
    }

    private long metric(SluiceBroker broker, String series) throws Exception {
        return sample(scrape(broker), series);
    }

    private long awaitMetric(SluiceBroker broker, String series, Predicate<Long> done) throws Exception {
        return Poll.until(
                series + " on broker " + broker.membership().node().self().id(),
                WAIT,
                () -> {
                    try {
                        return metric(broker, series);
                    } catch (AssertionError notYet) {
                        // A series appears with its metric (a partition's Log gauges within seconds of its arrival).
                        throw new IllegalStateException(notYet.getMessage());
                    }
                },
                done);
    }

    @Test
    void shouldCountAReassignmentsBytesOnBothSidesAsKip352Says() throws Exception {
        cluster = new ZooKeeperBrokers(dir, "metrics");
        first = start(1);
        Poll.until(
                "broker 1 to become controller",
                WAIT,
                () -> first.membership().node().isController(),
                c -> c);
        second = start(2);
        Properties adminProps = new Properties();
        adminProps.put(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + first.boundAddress().getPort());
        String moving = "moving";
        try (Admin admin = Admin.create(adminProps)) {
            admin.createTopics(List.of(new NewTopic(moving, Map.of(0, List.of(1)))))
                    .all()
                    .get();
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                    producerProps(first, "all"), new ByteArraySerializer(), new ByteArraySerializer())) {
                for (int i = 0; i < RECORDS; i++) {
                    producer.send(new ProducerRecord<>(moving, 0, null, new byte[1000]))
                            .get();
                }
            }
            long logSize = awaitMetric(
                    first, "kafka_log_log_size{partition=\"0\",topic=\"" + moving + "\"}", v -> v > RECORDS * 1000L);
            assertEquals(0, metric(second, "kafka_server_brokertopicmetrics_reassignmentbytesin_total"));
            assertEquals(0, metric(first, "kafka_server_brokertopicmetrics_reassignmentbytesout_total"));
            admin.alterPartitionReassignments(Map.of(
                            new org.apache.kafka.common.TopicPartition(moving, 0),
                            java.util.Optional.of(
                                    new org.apache.kafka.clients.admin.NewPartitionReassignment(List.of(2)))))
                    .all()
                    .get();
            Poll.until(
                    "the reassignment to finish",
                    WAIT,
                    () -> admin.listPartitionReassignments()
                                    .reassignments()
                                    .get()
                                    .isEmpty()
                            && admin
                                    .describeTopics(List.of(moving))
                                    .allTopicNames()
                                    .get()
                                    .get(moving)
                                    .partitions()
                                    .get(0)
                                    .replicas()
                                    .stream()
                                    .map(n -> n.id())
                                    .toList()
                                    .equals(List.of(2)),
                    done -> done);
            // the new replica received the whole log, the old leader sent it; nothing is reassigning any more
            awaitMetric(second, "kafka_server_brokertopicmetrics_reassignmentbytesin_total", v -> v >= logSize);
            awaitMetric(first, "kafka_server_brokertopicmetrics_reassignmentbytesout_total", v -> v >= logSize);
            assertEquals(0, metric(first, "kafka_server_replicamanager_reassigningpartitions"));
            assertEquals(0, metric(second, "kafka_server_replicamanager_reassigningpartitions"));
            assertEquals(
                    0,
                    metric(first, "kafka_server_brokertopicmetrics_reassignmentbytesin_total"),
                    "the source received nothing for the move");
        }
    }

    @Test
    void shouldShowFollowerFetchesControllerStateAndIsrChanges() throws Exception {
        cluster = new ZooKeeperBrokers(dir, "metrics");
        first = start(1);
        Poll.until(
                "broker 1 to become controller",
                WAIT,
                () -> first.membership().node().isController(),
                c -> c);
        second = start(2);
        Properties adminProps = new Properties();
        adminProps.put(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + first.boundAddress().getPort());
        int ledByFirst;
        try (Admin admin = Admin.create(adminProps)) {
            // Two partitions on two brokers: the assigner gives each broker one leader.
            admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 2))).all().get();
            TopicDescription description =
                    admin.describeTopics(List.of(TOPIC)).allTopicNames().get().get(TOPIC);
            ledByFirst = description.partitions().stream()
                    .filter(p -> p.leader().id() == 1)
                    .findFirst()
                    .orElseThrow()
                    .partition();
        }
        awaitMetric(first, "kafka_server_replicamanager_leadercount", v -> v == 1);
        awaitMetric(second, "kafka_server_replicamanager_leadercount", v -> v == 1);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                producerProps(first, "all"), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(TOPIC, ledByFirst, null, new byte[] {(byte) i}))
                        .get();
            }
        }
        String topic = "{topic=\"" + TOPIC + "\"}";
        String firstScrape = scrape(first);
        assertEquals(RECORDS, sample(firstScrape, "kafka_server_brokertopicmetrics_messagesin_total" + topic));
        assertEquals(
                0,
                sample(firstScrape, "kafka_server_brokertopicmetrics_bytesout_total" + topic),
                "the follower's fetches are replication, not bytes out");
        assertTrue(
                sample(firstScrape, "kafka_network_requestmetrics_totaltime_count{request=\"FetchFollower\"}") > 0,
                "the follower fetched from the leader");
        assertEquals(1, sample(firstScrape, "kafka_controller_kafkacontroller_activecontrollercount"));
        assertEquals(2, sample(firstScrape, "kafka_controller_kafkacontroller_globalpartitioncount"));

        String secondScrape = scrape(second);
        assertEquals(2, sample(secondScrape, "kafka_server_replicamanager_partitioncount"));
        assertEquals(0, sample(secondScrape, "kafka_controller_kafkacontroller_activecontrollercount"));
        assertEquals(
                0,
                sample(secondScrape, "kafka_controller_kafkacontroller_globalpartitioncount"),
                "only the active controller counts the cluster's partitions");
        assertEquals(
                0,
                sample(secondScrape, "kafka_server_brokertopicmetrics_messagesin_total"),
                "records a follower copies are not messages in");
        String followedLog = "kafka_log_log_logendoffset{partition=\"" + ledByFirst + "\",topic=\"" + TOPIC + "\"}";
        awaitMetric(second, followedLog, v -> v == RECORDS);
        awaitMetric(second, "kafka_server_replicafetchermanager_maxlag{clientid=\"Replica\"}", v -> v == 0);

        // A follower held back by a 1 byte/s throttle falls behind: the leader shrinks the ISR itself.
        try (Admin admin = Admin.create(adminProps)) {
            throttleFollower(admin, AlterConfigOp.OpType.SET);
            // Records keep coming until the leader gives up on the follower: one fetch of a throttled follower could
            // otherwise take everything and leave it caught up. Once the producer stops it may rejoin at any time.
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                    producerProps(first, "1"), new ByteArraySerializer(), new ByteArraySerializer())) {
                Poll.until(
                        "the leader to shrink the ISR while records keep coming",
                        WAIT,
                        () -> {
                            producer.send(new ProducerRecord<>(TOPIC, ledByFirst, null, new byte[1000]))
                                    .get();
                            return metric(first, "kafka_server_replicamanager_isrshrinks_total");
                        },
                        shrinks -> shrinks >= 1);
            }
            throttleFollower(admin, AlterConfigOp.OpType.DELETE);
        }
        awaitMetric(first, "kafka_server_replicamanager_isrexpands_total", v -> v >= 1);
        awaitMetric(first, "kafka_server_replicamanager_underreplicatedpartitions", v -> v == 0);

        // A broker that leaves: the controller takes it out of every ISR and the other broker leads both partitions.
        second.close();
        second = null;
        awaitMetric(first, "kafka_server_replicamanager_underreplicatedpartitions", v -> v == 2);
        assertEquals(2, metric(first, "kafka_server_replicamanager_leadercount"));
    }

    private static void throttleFollower(Admin admin, AlterConfigOp.OpType op) throws Exception {
        admin.incrementalAlterConfigs(Map.of(
                        new ConfigResource(ConfigResource.Type.BROKER, "2"),
                        List.of(new AlterConfigOp(new ConfigEntry("follower.replication.throttled.rate", "1"), op)),
                        new ConfigResource(ConfigResource.Type.TOPIC, TOPIC),
                        List.of(new AlterConfigOp(
                                new ConfigEntry("follower.replication.throttled.replicas", "*"), op))))
                .all()
                .get();
    }

    private static Properties producerProps(SluiceBroker bootstrap, String acks) {
        Properties props = new Properties();
        props.put(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + bootstrap.boundAddress().getPort());
        props.put(ProducerConfig.ACKS_CONFIG, acks);
        return props;
    }
}
