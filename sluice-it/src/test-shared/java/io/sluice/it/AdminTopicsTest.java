package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.SluiceBrokerProcess;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * AdminClient topic lifecycle, the broker's validation of topic names and partition counts, and the authorized
 * operations it reports when asked.
 */
class AdminTopicsTest {

    private static final long TIMEOUT_SECONDS = 30;
    /** Kafka's limit is 249 characters. */
    private static final String TOO_LONG_NAME = "t".repeat(250);

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;
    private Admin admin;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = TestBroker.start(tempDir);
    }

    @AfterAll
    static void stopBroker() {
        TestBroker.stopAndKeepLog(broker, AdminTopicsTest.class);
    }

    @BeforeEach
    void connect() {
        admin = TestClients.admin(broker.bootstrap());
    }

    @AfterEach
    void disconnect() {
        admin.close();
    }

    @Test
    void shouldCreateDescribeListAndDeleteTopic() throws Exception {
        admin.createTopics(List.of(new NewTopic("admin-orders", 3, (short) 1)))
                .all()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        TopicDescription description = admin.describeTopics(List.of("admin-orders"))
                .allTopicNames()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .get("admin-orders");
        assertEquals("admin-orders", description.name());
        assertFalse(description.isInternal());
        assertNotNull(description.topicId(), "topic id");
        assertEquals(3, description.partitions().size(), description::toString);
        for (int p = 0; p < 3; p++) {
            TopicPartitionInfo partition = description.partitions().get(p);
            assertEquals(p, partition.partition(), description::toString);
            assertNotNull(
                    partition.leader(), () -> "leader of partition " + partition.partition() + " in " + description);
            assertEquals(1, partition.replicas().size(), description::toString);
            assertEquals(1, partition.isr().size(), description::toString);
        }
        Set<String> names = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertTrue(names.contains("admin-orders"), names::toString);

        admin.deleteTopics(List.of("admin-orders")).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        ExecutionException afterDelete = assertThrows(
                ExecutionException.class,
                () -> admin.describeTopics(List.of("admin-orders"))
                        .allTopicNames()
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(UnknownTopicOrPartitionException.class, afterDelete.getCause(), afterDelete::toString);
        assertFalse(admin.listTopics()
                .names()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .contains("admin-orders"));
    }

    @Test
    void shouldReportEveryOperationAsAuthorizedWhenAskedWithoutAnAuthorizer() throws Exception {
        admin.createTopics(List.of(new NewTopic("admin-authorized", 1, (short) 1)))
                .all()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        TopicDescription asked = admin.describeTopics(
                        List.of("admin-authorized"), new DescribeTopicsOptions().includeAuthorizedOperations(true))
                .allTopicNames()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .get("admin-authorized");
        assertEquals(
                EnumSet.of(
                        AclOperation.READ,
                        AclOperation.WRITE,
                        AclOperation.CREATE,
                        AclOperation.DELETE,
                        AclOperation.ALTER,
                        AclOperation.DESCRIBE,
                        AclOperation.DESCRIBE_CONFIGS,
                        AclOperation.ALTER_CONFIGS),
                asked.authorizedOperations(),
                asked::toString);
        assertEquals(
                EnumSet.of(
                        AclOperation.CREATE,
                        AclOperation.CLUSTER_ACTION,
                        AclOperation.DESCRIBE_CONFIGS,
                        AclOperation.ALTER_CONFIGS,
                        AclOperation.IDEMPOTENT_WRITE,
                        AclOperation.ALTER,
                        AclOperation.DESCRIBE),
                admin.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true))
                        .authorizedOperations()
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS));

        // not asked for: omitted, which the client reports as null
        assertNull(admin.describeTopics(List.of("admin-authorized"))
                .allTopicNames()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .get("admin-authorized")
                .authorizedOperations());
        assertNull(admin.describeCluster().authorizedOperations().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void shouldRefuseCreatingAnExistingTopic() throws Exception {
        admin.createTopics(List.of(new NewTopic("admin-twice", 1, (short) 1)))
                .all()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ExecutionException again = assertThrows(
                ExecutionException.class,
                () -> admin.createTopics(List.of(new NewTopic("admin-twice", 1, (short) 1)))
                        .all()
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(TopicExistsException.class, again.getCause(), again::toString);
    }

    static List<String> invalidTopicNames() {
        return List.of("bad/name", "..", ".", "has space", "star*", "ünïcode", TOO_LONG_NAME);
    }

    @ParameterizedTest
    @MethodSource("invalidTopicNames")
    void shouldRejectInvalidTopicName(String name) throws Exception {
        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> admin.createTopics(List.of(new NewTopic(name, 1, (short) 1)))
                        .all()
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(InvalidTopicException.class, failure.getCause(), failure::toString);
        assertFalse(admin.listTopics()
                .names()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .contains(name));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -2})
    void shouldRejectInvalidPartitionCount(int partitions) throws Exception {
        String name = "admin-partitions" + partitions;
        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1)))
                        .all()
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(InvalidPartitionsException.class, failure.getCause(), failure::toString);
        Map<String, ?> listed = Map.copyOf(admin.listTopics().namesToListings().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertFalse(listed.containsKey(name), listed::toString);
    }

    @Test
    void shouldReportUnknownTopicOnDescribe() {
        ExecutionException failure = assertThrows(
                ExecutionException.class,
                () -> admin.describeTopics(List.of("admin-never-created"))
                        .allTopicNames()
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(UnknownTopicOrPartitionException.class, failure.getCause(), failure::toString);
    }
}
