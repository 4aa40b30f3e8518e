package io.sluice.broker.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.cluster.KafkaWire;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The admin-facing APIs against a real broker, through the Kafka Java client's AdminClient. */
class BrokerApisTest {
    /** Kafka's operations per resource type, all allowed when no authorizer is configured. */
    private static final Set<AclOperation> TOPIC_OPERATIONS = EnumSet.of(
            AclOperation.READ,
            AclOperation.WRITE,
            AclOperation.CREATE,
            AclOperation.DELETE,
            AclOperation.ALTER,
            AclOperation.DESCRIBE,
            AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS);

    private static final Set<AclOperation> CLUSTER_OPERATIONS = EnumSet.of(
            AclOperation.CREATE,
            AclOperation.CLUSTER_ACTION,
            AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS,
            AclOperation.IDEMPOTENT_WRITE,
            AclOperation.ALTER,
            AclOperation.DESCRIBE);
    /** Kafka's value for "not asked for" in Metadata and DescribeCluster. */
    private static final int OPERATIONS_OMITTED = Integer.MIN_VALUE;

    @TempDir
    static Path dataDir;

    static InProcessBroker broker;
    static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        broker = new InProcessBroker(dataDir, Map.of("auto.create.topics.enable", "false"));
        admin = broker.admin();
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    private static Throwable cause(ExecutionException e) {
        return e.getCause();
    }

    @Test
    void shouldCreateDescribeAndDeleteATopicByName() throws Exception {
        admin.createTopics(List.of(new NewTopic("described", 3, (short) 1).configs(Map.of("retention.ms", "1234"))))
                .all()
                .get();
        TopicDescription description =
                admin.describeTopics(List.of("described")).allTopicNames().get().get("described");
        assertEquals(3, description.partitions().size());
        assertFalse(description.topicId().equals(Uuid.ZERO_UUID));
        assertEquals(
                broker.broker.cluster().self().id(),
                description.partitions().get(2).leader().id());

        Config config = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, "described")))
                .all()
                .get()
                .values()
                .iterator()
                .next();
        assertEquals("1234", config.get("retention.ms").value());
        assertFalse(config.get("retention.ms").isDefault());

        admin.deleteTopics(List.of("described")).all().get();
        ExecutionException gone = assertThrows(
                ExecutionException.class,
                () -> admin.describeTopics(List.of("described")).allTopicNames().get());
        assertInstanceOf(UnknownTopicOrPartitionException.class, cause(gone));
    }

    @Test
    void shouldDeleteATopicById() throws Exception {
        Uuid id = admin.createTopics(List.of(new NewTopic("byid", 1, (short) 1)))
                .topicId("byid")
                .get();
        admin.deleteTopics(TopicCollection.ofTopicIds(List.of(id))).all().get();
        assertFalse(admin.listTopics().names().get().contains("byid"));
        ExecutionException unknown = assertThrows(
                ExecutionException.class,
                () -> admin.deleteTopics(TopicCollection.ofTopicIds(List.of(id)))
                        .all()
                        .get());
        assertInstanceOf(UnknownTopicIdException.class, cause(unknown));
    }

    @Test
    void shouldRefuseBadTopicsWithTheErrorsKafkaReturns() {
        assertInstanceOf(
                InvalidTopicException.class,
                cause(assertThrows(
                        ExecutionException.class,
                        () -> admin.createTopics(List.of(new NewTopic("bad/name", 1, (short) 1)))
                                .all()
                                .get())));
        assertInstanceOf(
                InvalidPartitionsException.class,
                cause(assertThrows(
                        ExecutionException.class,
                        () -> admin.createTopics(List.of(new NewTopic("zero-partitions", 0, (short) 1)))
                                .all()
                                .get())));
        assertInstanceOf(
                InvalidReplicationFactorException.class,
                cause(assertThrows(
                        ExecutionException.class,
                        () -> admin.createTopics(List.of(new NewTopic("three-replicas", 1, (short) 3)))
                                .all()
                                .get())));
        ExecutionException badConfig = assertThrows(
                ExecutionException.class,
                () -> admin.createTopics(List.of(
                                new NewTopic("bad-config", 1, (short) 1).configs(Map.of("retention.ms", "soon"))))
                        .all()
                        .get());
        assertInstanceOf(InvalidConfigurationException.class, cause(badConfig));
        assertTrue(
                cause(badConfig).getMessage().contains("retention.ms"),
                cause(badConfig).getMessage());
    }

    @Test
    void shouldOnlyValidateWhenAskedTo() throws Exception {
        admin.createTopics(
                        List.of(new NewTopic("validated", 2, (short) 1)), new CreateTopicsOptions().validateOnly(true))
                .all()
                .get();
        assertFalse(admin.listTopics().names().get().contains("validated"));
        admin.createTopics(List.of(new NewTopic("twice", 1, (short) 1))).all().get();
        assertInstanceOf(
                TopicExistsException.class,
                cause(assertThrows(
                        ExecutionException.class,
                        () -> admin.createTopics(List.of(new NewTopic("twice", 1, (short) 1)))
                                .all()
                                .get())));
    }

    @Test
    void shouldDescribeTheClusterAndTheBrokerConfig() throws Exception {
        assertEquals(1, admin.describeCluster().nodes().get().size());
        assertNotNull(admin.describeCluster().clusterId().get());
        Config brokerConfig = admin.describeConfigs(List.of(new ConfigResource(
                        ConfigResource.Type.BROKER,
                        Integer.toString(broker.broker.cluster().self().id()))))
                .all()
                .get()
                .values()
                .iterator()
                .next();
        assertEquals("false", brokerConfig.get("auto.create.topics.enable").value());
    }

    @Test
    void shouldListOffsetsByPositionAndTimestamp() throws Exception {
        admin.createTopics(List.of(new NewTopic("timed", 1, (short) 1))).all().get();
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(
                                "timed", 0, 1_000L * (i + 1), null, ("v" + i).getBytes(StandardCharsets.UTF_8)))
                        .get();
            }
        }
        TopicPartition tp = new TopicPartition("timed", 0);
        assertEquals(0, offsets(tp, OffsetSpec.earliest()).offset());
        assertEquals(10, offsets(tp, OffsetSpec.latest()).offset());
        ListOffsetsResultInfo max = offsets(tp, OffsetSpec.maxTimestamp());
        assertEquals(9, max.offset());
        assertEquals(10_000L, max.timestamp());
        ListOffsetsResultInfo at = offsets(tp, OffsetSpec.forTimestamp(4_500L));
        assertEquals(4, at.offset());
        assertEquals(5_000L, at.timestamp());
        assertEquals(-1, offsets(tp, OffsetSpec.forTimestamp(99_000L)).offset());
    }

    private static ListOffsetsResultInfo offsets(TopicPartition tp, OffsetSpec spec) throws Exception {
        return admin.listOffsets(Map.of(tp, spec)).partitionResult(tp).get();
    }

    @Test
    void shouldRefuseAcksAllWhenMinInsyncReplicasCannotBeMet() throws Exception {
        admin.createTopics(List.of(new NewTopic("strict", 1, (short) 1).configs(Map.of("min.insync.replicas", "2"))))
                .all()
                .get();
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        props.put(ProducerConfig.RETRIES_CONFIG, 0);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            ExecutionException e = assertThrows(
                    ExecutionException.class,
                    () -> producer.send(new ProducerRecord<>("strict", new byte[] {1}))
                            .get());
            assertInstanceOf(NotEnoughReplicasException.class, e.getCause());
        }
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            assertEquals(
                    0,
                    producer.send(new ProducerRecord<>("strict", new byte[] {1}))
                            .get()
                            .offset());
        }
    }

    @Test
    void shouldNotCreateTopicsOnMetadataWhenAutoCreateIsOff() throws Exception {
        Set<String> before = admin.listTopics().names().get();
        ExecutionException e = assertThrows(
                ExecutionException.class,
                () -> admin.describeTopics(List.of("never-created"))
                        .allTopicNames()
                        .get());
        assertInstanceOf(UnknownTopicOrPartitionException.class, cause(e));
        assertEquals(before, admin.listTopics().names().get());
    }

    @Test
    void shouldReportAuthorizedOperationsInEveryMetadataVersionThatCarriesThem() throws Exception {
        admin.createTopics(List.of(new NewTopic("metadata-authorized", 1, (short) 1)))
                .all()
                .get();
        List<String> names = List.of("metadata-authorized", "metadata-never-created");
        try (KafkaWire wire =
                new KafkaWire("127.0.0.1", broker.broker.boundAddress().getPort())) {
            for (short version = 8; version <= 12; version++) {
                MetadataResponseData asked = wire.<MetadataResponse>send(
                                new MetadataRequest.Builder(metadataRequest(names)
                                                .setIncludeClusterAuthorizedOperations(version <= 10)
                                                .setIncludeTopicAuthorizedOperations(true))
                                        .build(version))
                        .data();
                if (version <= 10) {
                    assertEquals(CLUSTER_OPERATIONS, operations(asked.clusterAuthorizedOperations()), "v" + version);
                }
                for (String name : names) {
                    // Kafka reports them for every topic asked for by name, whether it exists or not
                    assertEquals(
                            TOPIC_OPERATIONS,
                            operations(asked.topics().find(name).topicAuthorizedOperations()),
                            "v" + version + " " + name);
                }

                MetadataResponseData notAsked = wire.<MetadataResponse>send(
                                new MetadataRequest.Builder(metadataRequest(names)).build(version))
                        .data();
                assertEquals(OPERATIONS_OMITTED, notAsked.clusterAuthorizedOperations(), "v" + version);
                for (String name : names) {
                    assertEquals(
                            OPERATIONS_OMITTED, notAsked.topics().find(name).topicAuthorizedOperations());
                }
            }
        }
    }

    private static MetadataRequestData metadataRequest(List<String> names) {
        MetadataRequestData request = new MetadataRequestData().setAllowAutoTopicCreation(false);
        for (String name : names) {
            request.topics().add(new MetadataRequestData.MetadataRequestTopic().setName(name));
        }
        return request;
    }

    private static Set<AclOperation> operations(int bitField) {
        Set<AclOperation> operations = EnumSet.noneOf(AclOperation.class);
        for (byte code : Utils.from32BitField(bitField)) {
            operations.add(AclOperation.fromCode(code));
        }
        return operations;
    }
}
