package io.sluice.broker.security.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.ConfigException;
import io.sluice.broker.move.MoveFrameDescriptor;
import io.sluice.testkit.Poll;
import io.sluice.testkit.RawKafkaSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.SecurityDisabledException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACLs on one SASL_PLAINTEXT broker with kafka-clients: each API answers its Kafka authorization error without an
 * ACL and works with one; prefixed and deny ACLs; a super user; CreateAcls, DescribeAcls and DeleteAcls with Kafka's
 * filters; ClusterAction for follower fetches and the private move API; SECURITY_DISABLED without an authorizer and
 * a start refused for an unknown authorizer class.
 */
class AclEnforcementTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"admin\" password=\"admin-pw\" user_admin=\"admin-pw\" user_alice=\"alice-pw\" user_bob=\"bob-pw\";";
    private static final String ALICE = "User:alice";

    @TempDir
    static Path dataDir;

    static SluiceBroker broker;
    static Admin admin;
    static Admin alice;

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> props = new HashMap<>();
        props.put("log.dirs", dataDir.resolve("secured").toString());
        props.put("listeners", "SASL_PLAINTEXT://127.0.0.1:0");
        props.put("sasl.enabled.mechanisms", "PLAIN");
        props.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", JAAS);
        props.put("authorizer.class.name", "kafka.security.authorizer.AclAuthorizer");
        props.put("super.users", "User:admin");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("auto.create.topics.enable", "false");
        broker = SluiceBroker.start(BrokerConfig.fromMap(props));
        admin = Admin.create(client("admin", "admin-pw"));
        alice = Admin.create(client("alice", "alice-pw"));
    }

    @AfterAll
    static void stop() {
        alice.close();
        admin.close();
        broker.close();
    }

    static Properties client(String user, String password) {
        Properties p = new Properties();
        p.put(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + broker.boundAddress().getPort());
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        p.put("sasl.mechanism", "PLAIN");
        p.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + user + "\" password=\""
                        + password + "\";");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        return p;
    }

    static AclBinding acl(
            ResourceType type, String name, PatternType pattern, AclOperation op, AclPermissionType permission) {
        return new AclBinding(
                new ResourcePattern(type, name, pattern), new AccessControlEntry(ALICE, "*", op, permission));
    }

    static AclBinding allow(ResourceType type, String name, AclOperation op) {
        return acl(type, name, PatternType.LITERAL, op, AclPermissionType.ALLOW);
    }

    /** Adds the ACLs and waits until the broker has applied them (DescribeAcls answers from its applied state). */
    static void grant(AclBinding... acls) throws Exception {
        admin.createAcls(List.of(acls)).all().get();
        Poll.until(
                "ACLs applied",
                WAIT,
                () -> admin.describeAcls(AclBindingFilter.ANY).values().get(),
                (Collection<AclBinding> seen) -> seen.containsAll(List.of(acls)));
    }

    static void createTopic(String name) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get();
    }

    static Throwable cause(org.junit.jupiter.api.function.Executable call) {
        return assertThrows(ExecutionException.class, call).getCause();
    }

    static KafkaProducer<String, String> producer(boolean idempotent) {
        return producer("alice", idempotent);
    }

    static KafkaProducer<String, String> producer(String user, boolean idempotent) {
        Properties p = client(user, user + "-pw");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, Boolean.toString(idempotent));
        if (!idempotent) {
            p.put(ProducerConfig.ACKS_CONFIG, "1");
        }
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    @Test
    void shouldAddListAndRemoveAclsWithKafkasFilters() throws Exception {
        AclBinding literal = allow(ResourceType.TOPIC, "acl-api", AclOperation.READ);
        AclBinding prefixed =
                acl(ResourceType.TOPIC, "acl-", PatternType.PREFIXED, AclOperation.WRITE, AclPermissionType.ALLOW);
        AclBinding group = allow(ResourceType.GROUP, "acl-api", AclOperation.READ);
        grant(literal, prefixed, group);
        AclBindingFilter matchName = new AclBindingFilter(
                new ResourcePatternFilter(ResourceType.TOPIC, "acl-api", PatternType.MATCH),
                AccessControlEntryFilter.ANY);
        assertEquals(
                Set.of(literal, prefixed),
                Set.copyOf(admin.describeAcls(matchName).values().get()));
        assertInstanceOf(
                ClusterAuthorizationException.class,
                cause(() -> alice.describeAcls(matchName).values().get()));
        assertInstanceOf(
                ClusterAuthorizationException.class,
                cause(() -> alice.createAcls(List.of(literal)).all().get()));
        assertInstanceOf(
                InvalidRequestException.class,
                cause(() -> admin.createAcls(
                                List.of(allow(ResourceType.CLUSTER, "not-the-cluster", AclOperation.ALTER)))
                        .all()
                        .get()));

        AclBindingFilter prefixedOnly = new AclBindingFilter(
                new ResourcePatternFilter(ResourceType.TOPIC, null, PatternType.PREFIXED),
                AccessControlEntryFilter.ANY);
        assertEquals(
                List.of(prefixed),
                List.copyOf(admin.deleteAcls(List.of(prefixedOnly)).all().get()));
        Poll.until(
                "prefixed ACL removed",
                WAIT,
                () -> admin.describeAcls(matchName).values().get(),
                seen -> Set.copyOf(seen).equals(Set.of(literal)));
        admin.deleteAcls(List.of(literal.toFilter(), group.toFilter())).all().get();
    }

    @Test
    void shouldRefuseProduceWithoutWriteAndAcceptItWithAnAcl() throws Exception {
        createTopic("orders");
        try (KafkaProducer<String, String> p = producer(false)) {
            assertInstanceOf(
                    TopicAuthorizationException.class,
                    cause(() -> p.send(new ProducerRecord<>("orders", "k", "v")).get()));
        }
        grant(allow(ResourceType.TOPIC, "orders", AclOperation.WRITE));
        try (KafkaProducer<String, String> p = producer(true)) {
            assertEquals(
                    0,
                    p.send(new ProducerRecord<>("orders", "k", "v")).get().offset(),
                    "Write on a topic also allows the idempotent producer's InitProducerId");
        }
    }

    @Test
    void shouldRefuseInitProducerIdWithoutIdempotentWriteOrWriteAnywhere() throws Exception {
        createTopic("idempotent");
        AclBinding describe = new AclBinding(
                new ResourcePattern(ResourceType.TOPIC, "idempotent", PatternType.LITERAL),
                new AccessControlEntry("User:bob", "*", AclOperation.DESCRIBE, AclPermissionType.ALLOW));
        grant(describe);
        try (KafkaProducer<String, String> p = producer("bob", true)) {
            // The refused InitProducerId fails the send's future, or, when it was answered before send() ran, send()
            // itself (the producer is then in its error state, with the refusal as the cause).
            Throwable refused;
            try {
                p.send(new ProducerRecord<>("idempotent", "k", "v")).get();
                throw new AssertionError("bob's idempotent send was accepted");
            } catch (ExecutionException | org.apache.kafka.common.KafkaException e) {
                refused = e.getCause();
            }
            assertInstanceOf(ClusterAuthorizationException.class, refused);
        }
        grant(
                new AclBinding(
                        new ResourcePattern(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL),
                        new AccessControlEntry(
                                "User:bob", "*", AclOperation.IDEMPOTENT_WRITE, AclPermissionType.ALLOW)),
                new AclBinding(
                        new ResourcePattern(ResourceType.TOPIC, "idempotent", PatternType.LITERAL),
                        new AccessControlEntry("User:bob", "*", AclOperation.WRITE, AclPermissionType.ALLOW)));
        try (KafkaProducer<String, String> p = producer("bob", true)) {
            assertEquals(
                    0,
                    p.send(new ProducerRecord<>("idempotent", "k", "v")).get().offset());
        }
    }

    @Test
    void shouldNeedReadOnTheGroupAndTheTopicToConsume() throws Exception {
        createTopic("events");
        try (KafkaProducer<String, String> p =
                new KafkaProducer<>(client("admin", "admin-pw"), new StringSerializer(), new StringSerializer())) {
            p.send(new ProducerRecord<>("events", "k", "first")).get();
        }
        grant(allow(ResourceType.TOPIC, "events", AclOperation.DESCRIBE));
        Properties c = client("alice", "alice-pw");
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "readers");
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("events"));
            assertThrows(GroupAuthorizationException.class, () -> consumer.poll(Duration.ofSeconds(10)));
        }
        grant(allow(ResourceType.GROUP, "readers", AclOperation.READ));
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(new TopicPartition("events", 0)));
            consumer.seekToBeginning(List.of(new TopicPartition("events", 0)));
            assertThrows(TopicAuthorizationException.class, () -> consumer.poll(Duration.ofSeconds(10)));
        }
        grant(allow(ResourceType.TOPIC, "events", AclOperation.READ));
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("events"));
            List<String> values = new ArrayList<>();
            Poll.until(
                    "records consumed",
                    WAIT,
                    () -> {
                        ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                        records.forEach(r -> values.add(r.value()));
                        return values;
                    },
                    v -> !v.isEmpty());
            assertEquals(List.of("first"), values);
            consumer.commitSync();
        }
        assertEquals(
                Set.of("readers"),
                Set.copyOf(alice.listConsumerGroups().all().get().stream()
                        .map(g -> g.groupId())
                        .toList()),
                "ListGroups shows only the groups alice may describe");
        assertEquals(
                "readers",
                alice.describeConsumerGroups(List.of("readers"))
                        .all()
                        .get()
                        .get("readers")
                        .groupId(),
                "Read on the group implies Describe");
        TopicPartition events = new TopicPartition("events", 0);
        assertInstanceOf(
                GroupAuthorizationException.class,
                cause(() -> alice.deleteConsumerGroupOffsets("readers", Set.of(events))
                        .all()
                        .get()));
        assertInstanceOf(
                GroupAuthorizationException.class,
                cause(() -> alice.deleteConsumerGroups(List.of("readers")).all().get()));
        grant(allow(ResourceType.GROUP, "readers", AclOperation.DELETE));
        alice.deleteConsumerGroupOffsets("readers", Set.of(events)).all().get();
        alice.deleteConsumerGroups(List.of("readers")).all().get();
    }

    @Test
    void shouldHonourPrefixedAndDenyAclsInMetadata() throws Exception {
        createTopic("pay-eu");
        createTopic("pay-secret");
        createTopic("other");
        grant(
                acl(ResourceType.TOPIC, "pay-", PatternType.PREFIXED, AclOperation.DESCRIBE, AclPermissionType.ALLOW),
                acl(
                        ResourceType.TOPIC,
                        "pay-secret",
                        PatternType.LITERAL,
                        AclOperation.DESCRIBE,
                        AclPermissionType.DENY));
        Set<String> visible = alice.listTopics().names().get();
        assertTrue(visible.contains("pay-eu"), visible.toString());
        assertFalse(visible.contains("pay-secret"), "deny wins over the prefixed allow");
        assertFalse(visible.contains("other"));
        assertInstanceOf(
                TopicAuthorizationException.class,
                cause(() -> alice.describeTopics(List.of("pay-secret"))
                        .allTopicNames()
                        .get()));
        assertEquals(
                1,
                alice.describeTopics(List.of("pay-eu"))
                        .allTopicNames()
                        .get()
                        .get("pay-eu")
                        .partitions()
                        .size());
    }

    @Test
    void shouldRefuseAdminApisWithTheirErrorCodesAndLetTheSuperUserDoThem() throws Exception {
        assertInstanceOf(
                TopicAuthorizationException.class,
                cause(() -> alice.createTopics(List.of(new NewTopic("alice-made", 1, (short) 1)))
                        .all()
                        .get()));
        grant(allow(ResourceType.TOPIC, "alice-made", AclOperation.CREATE));
        alice.createTopics(List.of(new NewTopic("alice-made", 1, (short) 1)))
                .all()
                .get();
        assertInstanceOf(
                TopicAuthorizationException.class,
                cause(() -> alice.deleteTopics(List.of("alice-made")).all().get()));
        assertInstanceOf(
                TopicAuthorizationException.class,
                cause(() -> alice.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, "alice-made")))
                        .all()
                        .get()));
        assertInstanceOf(
                ClusterAuthorizationException.class,
                cause(() -> alice.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.BROKER, "0")))
                        .all()
                        .get()));
        assertInstanceOf(
                ClusterAuthorizationException.class,
                cause(() -> alice.alterPartitionReassignments(Map.of(
                                new TopicPartition("alice-made", 0),
                                Optional.of(new NewPartitionReassignment(List.of(0)))))
                        .all()
                        .get()));
        assertInstanceOf(
                ClusterAuthorizationException.class,
                cause(() -> alice.listPartitionReassignments().reassignments().get()));
        grant(allow(ResourceType.TOPIC, "alice-made", AclOperation.DELETE));
        alice.deleteTopics(List.of("alice-made")).all().get();

        createTopic("admin-only");
        admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, "admin-only")))
                .all()
                .get();
        admin.listPartitionReassignments().reassignments().get();
        admin.deleteTopics(List.of("admin-only")).all().get();
    }

    /** One request on a raw connection, its answer parsed by kafka-clients. */
    static AbstractResponse call(RawKafkaSocket socket, AbstractRequest request, int correlationId) throws Exception {
        RequestHeader header = new RequestHeader(request.apiKey(), request.version(), "raw", correlationId);
        socket.sendFrame(request.serializeWithHeader(header));
        return AbstractResponse.parseResponse(socket.readFrame(1 << 20), header);
    }

    /** A raw connection logged in with PLAIN as {@code user}. */
    static RawKafkaSocket login(String user) throws Exception {
        RawKafkaSocket socket =
                RawKafkaSocket.connect("127.0.0.1:" + broker.boundAddress().getPort());
        call(
                socket,
                new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism("PLAIN")).build((short) 1),
                1);
        SaslAuthenticateResponse login = (SaslAuthenticateResponse) call(
                socket,
                new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData()
                                .setAuthBytes(
                                        ("\u0000" + user + "\u0000" + user + "-pw").getBytes(StandardCharsets.UTF_8)))
                        .build((short) 2),
                2);
        assertEquals(Errors.NONE, login.error());
        return socket;
    }

    static short followerFetchError(RawKafkaSocket socket) throws Exception {
        FetchRequestData fetch = new FetchRequestData()
                .setReplicaId(1)
                .setMaxWaitMs(0)
                .setMinBytes(0)
                .setMaxBytes(1 << 20)
                .setTopics(List.of(new FetchRequestData.FetchTopic()
                        .setTopic("replicated")
                        .setPartitions(List.of(new FetchRequestData.FetchPartition()
                                .setPartition(0)
                                .setFetchOffset(0)
                                .setPartitionMaxBytes(1 << 20)))));
        FetchResponse response = (FetchResponse) call(socket, new FetchRequest(fetch, (short) 12), 3);
        return response.data().responses().get(0).partitions().get(0).errorCode();
    }

    @Test
    void shouldNeedClusterActionForFollowerFetchesAndThePrivateMoveApi() throws Exception {
        createTopic("replicated");
        grant(allow(ResourceType.TOPIC, "replicated", AclOperation.READ));
        try (RawKafkaSocket socket = login("alice")) {
            assertEquals(
                    Errors.TOPIC_AUTHORIZATION_FAILED.code(),
                    followerFetchError(socket),
                    "Read on the topic is a consumer's right, not a follower's");
            ByteBuffer privateFrame = ByteBuffer.allocate(16)
                    .putShort(MoveFrameDescriptor.API_KEY)
                    .putShort((short) 0)
                    .putInt(7)
                    .putLong(0)
                    .flip();
            socket.sendFrame(privateFrame);
            assertTrue(socket.awaitClosedByPeer(WAIT), "the move API refused without ClusterAction");
        }
        try (RawKafkaSocket socket = login("admin")) {
            assertFalse(followerFetchError(socket) == Errors.TOPIC_AUTHORIZATION_FAILED.code(), "a super user");
        }
    }

    @Test
    void shouldAnswerSecurityDisabledWithoutAnAuthorizer() throws Exception {
        Map<String, String> props =
                Map.of("log.dirs", dataDir.resolve("open").toString(), "listeners", "PLAINTEXT://127.0.0.1:0");
        try (SluiceBroker open = SluiceBroker.start(BrokerConfig.fromMap(props));
                Admin client = Admin.create(Map.of(
                        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        "127.0.0.1:" + open.boundAddress().getPort()))) {
            assertInstanceOf(
                    SecurityDisabledException.class,
                    cause(() ->
                            client.describeAcls(AclBindingFilter.ANY).values().get()));
            assertInstanceOf(
                    SecurityDisabledException.class,
                    cause(() -> client.createAcls(List.of(allow(ResourceType.TOPIC, "t", AclOperation.READ)))
                            .all()
                            .get()));
        }
    }

    @Test
    void shouldRefuseToStartWithAnUnknownAuthorizer() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> BrokerConfig.fromMap(Map.of(
                        "log.dirs",
                        dataDir.resolve("never").toString(),
                        "authorizer.class.name",
                        "com.example.MyAuthorizer")));
        assertTrue(e.getMessage().contains("authorizer.class.name"), e.getMessage());
    }
}
