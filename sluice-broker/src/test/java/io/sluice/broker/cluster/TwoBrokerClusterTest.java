package io.sluice.broker.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.testkit.Poll;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData.ListOffsetsPartition;
import org.apache.kafka.common.message.ListOffsetsRequestData.ListOffsetsTopic;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.requests.CreateTopicsRequest;
import org.apache.kafka.common.requests.CreateTopicsResponse;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.requests.ListOffsetsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two brokers in this JVM sharing one ZooKeeper: leaders come from the controller's state, clients
 * are routed by Metadata, non-leaders and non-controllers refuse with Kafka's errors, a stopped
 * broker's partitions go offline and come back with it, and logs of topics deleted meanwhile are
 * set aside.
 */
class TwoBrokerClusterTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private ZooKeeperBrokers cluster;
    private SluiceBroker first;
    private SluiceBroker second;

    @BeforeEach
    void startCluster() throws Exception {
        cluster = new ZooKeeperBrokers(dir, "two");
        first = start(1);
        await(() -> first.membership().node().isController(), "broker 1 to become controller");
        second = start(2);
        await(
                () -> first.cluster().liveBrokers().size() == 2
                        && second.cluster().liveBrokers().size() == 2,
                "both brokers to see each other");
    }

    @AfterEach
    void stopCluster() {
        for (SluiceBroker b : new SluiceBroker[] {second, first}) {
            if (b != null) {
                b.close();
            }
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private SluiceBroker start(int id) throws Exception {
        return cluster.start(id, Map.of("log.segment.delete.delay.ms", "0"));
    }

    @Test
    void shouldRouteClientsToLeadersAndRefuseRequestsOnOtherBrokers() throws Exception {
        try (Admin admin = admin(first)) {
            admin.createTopics(List.of(new NewTopic("routed", 6, (short) 1)))
                    .all()
                    .get();
        }
        awaitServed(second, "routed", 6);
        MetadataResponseTopic topic = metadata(second, "routed");
        Set<Integer> leaders = topic.partitions().stream()
                .map(MetadataResponsePartition::leaderId)
                .collect(Collectors.toSet());
        assertEquals(Set.of(1, 2), leaders, "leaders are spread over both brokers");
        int ledBySecond = topic.partitions().stream()
                .filter(p -> p.leaderId() == 2)
                .findFirst()
                .orElseThrow()
                .partitionIndex();

        try (KafkaWire wire = wire(first)) {
            ProduceResponse produced = wire.send(produceRequest("routed", ledBySecond));
            short error = produced.data()
                    .responses()
                    .iterator()
                    .next()
                    .partitionResponses()
                    .get(0)
                    .errorCode();
            assertEquals(Errors.NOT_LEADER_OR_FOLLOWER, Errors.forCode(error));
            ListOffsetsResponse offsets = wire.send(listOffsetsRequest("routed", ledBySecond));
            assertEquals(
                    Errors.NOT_LEADER_OR_FOLLOWER,
                    Errors.forCode(
                            offsets.data().topics().get(0).partitions().get(0).errorCode()));
        }
        try (KafkaWire wire = wire(second)) {
            CreateTopicsResponse created = wire.send(new CreateTopicsRequest.Builder(new CreateTopicsRequestData()
                            .setTimeoutMs(10_000)
                            .setTopics(new CreateTopicsRequestData.CreatableTopicCollection(
                                    List.of(new CreateTopicsRequestData.CreatableTopic()
                                                    .setName("elsewhere")
                                                    .setNumPartitions(1)
                                                    .setReplicationFactor((short) 1))
                                            .iterator())))
                    .build((short) 7));
            assertEquals(
                    Errors.NOT_CONTROLLER,
                    Errors.forCode(created.data().topics().find("elsewhere").errorCode()));
            MetadataResponse metadata =
                    wire.send(new MetadataRequest.Builder(List.of("routed"), false).build((short) 12));
            assertEquals(1, metadata.data().controllerId());
            assertEquals(2, metadata.data().brokers().size());
        }
        try (KafkaProducer<String, String> producer = producer(second)) {
            for (int p = 0; p < 6; p++) {
                producer.send(new ProducerRecord<>("routed", p, "k" + p, "v" + p))
                        .get();
            }
        }
        for (int p = 0; p < 6; p++) {
            assertEquals(1, latestOffset(leaderOf(topic, p), "routed", p), "partition " + p + " holds its record");
        }
    }

    @Test
    void shouldReportPartitionsOfAStoppedBrokerOfflineAndGiveThemBackWithItsData() throws Exception {
        try (Admin admin = admin(first)) {
            admin.createTopics(List.of(new NewTopic("durable", 4, (short) 1)))
                    .all()
                    .get();
        }
        try (KafkaProducer<String, String> producer = producer(first)) {
            for (int p = 0; p < 4; p++) {
                producer.send(new ProducerRecord<>("durable", p, "k", "before")).get();
            }
        }
        MetadataResponseTopic before = metadata(first, "durable");
        List<MetadataResponsePartition> onSecond =
                before.partitions().stream().filter(p -> p.leaderId() == 2).toList();
        assertFalse(onSecond.isEmpty());

        second.close();
        second = null;
        await(
                () -> metadata(first, "durable").partitions().stream()
                                .filter(p -> p.leaderId() == -1)
                                .count()
                        == onSecond.size(),
                "broker 2's partitions to go offline");
        for (MetadataResponsePartition p : metadata(first, "durable").partitions()) {
            boolean offline = onSecond.stream().anyMatch(o -> o.partitionIndex() == p.partitionIndex());
            assertEquals(
                    offline ? Errors.LEADER_NOT_AVAILABLE : Errors.NONE,
                    Errors.forCode(p.errorCode()),
                    "partition " + p.partitionIndex());
            if (offline) {
                assertEquals(List.of(2), p.offlineReplicas());
            }
        }

        second = start(2);
        await(
                () -> metadata(first, "durable").partitions().stream().allMatch(p -> p.leaderId() >= 0),
                "broker 2's partitions to return");
        for (MetadataResponsePartition old : onSecond) {
            MetadataResponsePartition now =
                    metadata(first, "durable").partitions().get(old.partitionIndex());
            assertEquals(2, now.leaderId());
            assertTrue(now.leaderEpoch() > old.leaderEpoch(), "a new leader epoch after the return");
            assertEquals(
                    1,
                    latestOffset(second, "durable", old.partitionIndex()),
                    "the record written before the stop is back");
        }
    }

    @Test
    void shouldSetAsideTheLogsOfATopicDeletedWhileTheBrokerWasDown() throws Exception {
        try (Admin admin = admin(first)) {
            admin.createTopics(List.of(new NewTopic("doomed", 4, (short) 1)))
                    .all()
                    .get();
            awaitServed(second, "doomed", 4);
            Path dataOfSecond = cluster.dataDir(2);
            long hostedBefore = partitionDirs(dataOfSecond, "doomed-").stream()
                    .filter(n -> !n.endsWith("-stray"))
                    .count();
            assertTrue(hostedBefore > 0, "broker 2 hosts some partitions");
            second.close();
            second = null;
            admin.deleteTopics(List.of("doomed")).all().get();
            second = start(2);
            List<String> dirs = partitionDirs(dataOfSecond, "doomed-");
            assertEquals(
                    hostedBefore,
                    dirs.stream().filter(n -> n.endsWith("-stray")).count(),
                    "every log set aside: " + dirs);
            assertTrue(
                    dirs.stream().allMatch(n -> n.endsWith("-stray")),
                    "no log of the deleted topic stays live: " + dirs);
            assertTrue(
                    second.recoveryReport().stream().anyMatch(l -> l.contains("set aside log doomed-")),
                    String.join("\n", second.recoveryReport()));
        }
    }

    @Test
    void shouldRefuseASecondLiveBrokerWithTheSameIdNamingTheHolder() {
        java.io.IOException refused = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class, () -> {
            SluiceBroker.start(BrokerConfig.fromMap(cluster.config(2, dir.resolve("impostor"))))
                    .close();
        });
        Throwable cause = refused;
        while (cause != null && !(cause instanceof io.sluice.cluster.registry.DuplicateBrokerIdException)) {
            cause = cause.getCause();
        }
        assertTrue(cause != null, "a DuplicateBrokerIdException: " + refused);
        assertTrue(
                cause.getMessage().contains("127.0.0.1:" + second.boundAddress().getPort()), cause.getMessage());
        assertEquals(2, second.cluster().liveBrokers().size(), "the live broker 2 keeps its place");
    }

    private static List<String> partitionDirs(Path logDir, String prefix) throws Exception {
        try (Stream<Path> children = Files.list(logDir)) {
            return children.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(prefix))
                    .sorted()
                    .toList();
        }
    }

    private SluiceBroker leaderOf(MetadataResponseTopic topic, int partition) {
        return topic.partitions().get(partition).leaderId() == 1 ? first : second;
    }

    /**
     * Waits until {@code broker} answers Metadata for {@code topic} with every partition led: the
     * broker applies the controller's state after its cluster node has seen it, so the node's state
     * alone does not mean the broker serves the topic yet.
     */
    private static void awaitServed(SluiceBroker broker, String topic, int partitions) throws InterruptedException {
        await(
                () -> {
                    MetadataResponseTopic t = metadata(broker, topic);
                    return t.errorCode() == Errors.NONE.code()
                            && t.partitions().size() == partitions
                            && t.partitions().stream().allMatch(p -> p.leaderId() >= 0);
                },
                "the broker on port " + broker.boundAddress().getPort() + " to serve " + topic);
    }

    private static MetadataResponseTopic metadata(SluiceBroker broker, String topic) {
        try (KafkaWire wire = wire(broker)) {
            MetadataResponse response = wire.send(new MetadataRequest.Builder(List.of(topic), false).build((short) 12));
            MetadataResponseTopic t = response.data().topics().find(topic);
            t.partitions().sort((a, b) -> Integer.compare(a.partitionIndex(), b.partitionIndex()));
            return t;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static long latestOffset(SluiceBroker broker, String topic, int partition) throws Exception {
        try (KafkaWire wire = wire(broker)) {
            ListOffsetsResponse response = wire.send(listOffsetsRequest(topic, partition));
            var p = response.data().topics().get(0).partitions().get(0);
            assertEquals(Errors.NONE, Errors.forCode(p.errorCode()));
            return p.offset();
        }
    }

    private static ListOffsetsRequest listOffsetsRequest(String topic, int partition) {
        return ListOffsetsRequest.Builder.forConsumer(false, IsolationLevel.READ_UNCOMMITTED)
                .setTargetTimes(List.of(new ListOffsetsTopic()
                        .setName(topic)
                        .setPartitions(List.of(new ListOffsetsPartition()
                                .setPartitionIndex(partition)
                                .setTimestamp(ListOffsetsRequest.LATEST_TIMESTAMP)))))
                .build((short) 7);
    }

    private static ProduceRequest produceRequest(String topic, int partition) {
        MemoryRecords records =
                MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("v".getBytes(StandardCharsets.UTF_8)));
        ProduceRequestData data = new ProduceRequestData()
                .setAcks((short) 1)
                .setTimeoutMs(10_000)
                .setTopicData(new ProduceRequestData.TopicProduceDataCollection(
                        List.of(new ProduceRequestData.TopicProduceData()
                                        .setName(topic)
                                        .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData()
                                                .setIndex(partition)
                                                .setRecords(records))))
                                .iterator()));
        return ProduceRequest.forMagic(org.apache.kafka.common.record.RecordBatch.CURRENT_MAGIC_VALUE, data)
                .build((short) 9);
    }

    private static KafkaWire wire(SluiceBroker broker) throws java.io.IOException {
        return new KafkaWire("127.0.0.1", broker.boundAddress().getPort());
    }

    private static Admin admin(SluiceBroker broker) {
        Properties props = new Properties();
        props.put(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + broker.boundAddress().getPort());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
        return Admin.create(props);
    }

    private static KafkaProducer<String, String> producer(SluiceBroker broker) {
        Properties props = new Properties();
        props.put(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + broker.boundAddress().getPort());
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000);
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Poll.until(what, WAIT, condition::getAsBoolean, done -> done);
    }
}
