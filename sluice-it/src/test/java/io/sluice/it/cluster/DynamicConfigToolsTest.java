package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.it.InProcessTool;
import io.sluice.testkit.PartitionDirectory;
import io.sluice.testkit.Poll;
import io.sluice.testkit.ProcessResult;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.junit.jupiter.api.Test;

/**
 * Dynamic configuration on a three-broker cluster, driven by Apache Kafka 3.9's {@code kafka-configs.sh}
 * ({@code kafka.admin.ConfigCommand} run in-process) and by the admin client: topic configs added and deleted,
 * a broker's own config and the cluster default, each seen by DescribeConfigs on every broker with Kafka's source,
 * acting (segment.bytes rolls segments on every replica; min.insync.replicas decides what acks=all accepts), refused
 * with Kafka's error codes and messages, and kept through a controller failover and a broker restart.
 */
class DynamicConfigToolsTest extends ClusterTestBase {
    private static final String TOPIC = "dyn";
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(120);
    private static final String CONFIG_COMMAND = "kafka.admin.ConfigCommand";

    @Override
    List<String> brokerOverrides() {
        return replicationSettings(6000);
    }

    private ProcessResult configs(String bootstrap, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", bootstrap));
        all.addAll(List.of(args));
        return InProcessTool.run(CONFIG_COMMAND, new byte[0], TOOL_TIMEOUT, all.toArray(new String[0]));
    }

    private String configsOk(String bootstrap, String... args) throws IOException {
        ProcessResult result = configs(bootstrap, args);
        assertTrue(result.succeeded(), result::describe);
        return result.stdoutText();
    }

    private void createReplicatedTopic(Admin admin) throws Exception {
        admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3))).all().get();
        Poll.until(
                "every replica of " + TOPIC + " in sync",
                SETTLE,
                () -> admin.describeTopics(List.of(TOPIC))
                        .allTopicNames()
                        .get()
                        .get(TOPIC)
                        .partitions()
                        .get(0)
                        .isr()
                        .size(),
                n -> n == 3);
    }

    /** Waits until every live broker (for a broker resource: that broker) answers DescribeConfigs for {@code key}. */
    private void awaitEveryBroker(
            String topic, String brokerId, String key, String value, ConfigEntry.ConfigSource source) throws Exception {
        for (int id : cluster.brokerIds()) {
            if (!cluster.broker(id).isAlive() || (brokerId != null && !brokerId.equals(Integer.toString(id)))) {
                continue;
            }
            String target = brokerId != null ? brokerId : Integer.toString(id);
            String bootstrap = cluster.broker(id).bootstrap();
            DescribeConfigsResourceResult row = Poll.until(
                    "broker " + id + " describes " + key + "=" + value + " (" + source + ")",
                    SETTLE,
                    () -> OneRequest.describeConfig(bootstrap, topic, topic == null ? target : null, key),
                    r -> r != null
                            && value.equals(r.value())
                            && org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource.forId(
                                                    r.configSource())
                                            .source()
                                    == source);
            assertEquals(value, row.value());
        }
    }

    private int nonController() throws Exception {
        int controller = cluster.probe().controller().brokerId();
        return cluster.brokerIds().stream()
                .filter(id -> id != controller)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void shouldAlterDescribeAndApplyConfigsWithKafkaConfigsTool() throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            createReplicatedTopic(admin);
        }
        // A broker that is not the controller forwards the change to it.
        String viaFollower = cluster.broker(nonController()).bootstrap();
        String added = configsOk(
                viaFollower,
                "--entity-type",
                "topics",
                "--entity-name",
                TOPIC,
                "--alter",
                "--add-config",
                "segment.bytes=2048,min.insync.replicas=4,follower.replication.throttled.replicas=[0:1,0:2]");
        assertTrue(added.contains("Completed updating config for topic " + TOPIC), added);
        awaitEveryBroker(TOPIC, null, "segment.bytes", "2048", ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        awaitEveryBroker(TOPIC, null, "min.insync.replicas", "4", ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);

        String described =
                configsOk(cluster.bootstrap(), "--entity-type", "topics", "--entity-name", TOPIC, "--describe");
        assertTrue(described.contains("Dynamic configs for topic " + TOPIC + " are:"), described);
        assertTrue(
                described.contains(
                        "segment.bytes=2048 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:segment.bytes=2048, "
                                + "DEFAULT_CONFIG:log.segment.bytes=1073741824}"),
                described);
        assertTrue(described.contains("follower.replication.throttled.replicas=0:1,0:2"), described);

        // min.insync.replicas=4 over three in-sync replicas: acks=all is refused; deleting it lets it through.
        try (KafkaProducer<String, String> producer = ClusterClients.unretriedProducer(cluster.bootstrap(), "all")) {
            ExecutionException refused = assertThrows(
                    ExecutionException.class,
                    () -> producer.send(new ProducerRecord<>(TOPIC, "k", "v")).get());
            assertInstanceOf(NotEnoughReplicasException.class, refused.getCause());
            configsOk(
                    viaFollower,
                    "--entity-type",
                    "topics",
                    "--entity-name",
                    TOPIC,
                    "--alter",
                    "--delete-config",
                    "min.insync.replicas");
            awaitEveryBroker(TOPIC, null, "min.insync.replicas", "1", ConfigEntry.ConfigSource.DEFAULT_CONFIG);
            for (int i = 0; i < 40; i++) {
                producer.send(new ProducerRecord<>(TOPIC, "k" + i, "v".repeat(200)))
                        .get();
            }
        }
        // segment.bytes=2048 acts on every replica: 40 records of 200 bytes roll several segments everywhere.
        for (int id : cluster.brokerIds()) {
            Poll.until(
                    "broker " + id + " rolled segments of " + TOPIC + " at 2048 bytes",
                    SETTLE,
                    () -> new PartitionDirectory(cluster.brokerDir(id), TOPIC, 0)
                            .segments()
                            .size(),
                    n -> n >= 3);
        }

        // This broker's own config and the cluster default; a broker key Sluice cannot change live is refused.
        int controller = cluster.probe().controller().brokerId();
        String self = Integer.toString(controller);
        configsOk(
                cluster.bootstrap(),
                "--entity-type",
                "brokers",
                "--entity-name",
                self,
                "--alter",
                "--add-config",
                "leader.replication.throttled.rate=1000000");
        configsOk(
                cluster.bootstrap(),
                "--entity-type",
                "brokers",
                "--entity-default",
                "--alter",
                "--add-config",
                "log.retention.ms=604800000");
        awaitEveryBroker(
                null,
                self,
                "leader.replication.throttled.rate",
                "1000000",
                ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG);
        awaitEveryBroker(
                TOPIC, null, "retention.ms", "604800000", ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);
        String brokerDescribed =
                configsOk(cluster.bootstrap(), "--entity-type", "brokers", "--entity-name", self, "--describe");
        assertTrue(brokerDescribed.contains("Dynamic configs for broker " + self + " are:"), brokerDescribed);
        assertTrue(
                brokerDescribed.contains("leader.replication.throttled.rate=1000000 sensitive=false "
                        + "synonyms={DYNAMIC_BROKER_CONFIG:leader.replication.throttled.rate=1000000"),
                brokerDescribed);
        String defaultDescribed =
                configsOk(cluster.bootstrap(), "--entity-type", "brokers", "--entity-default", "--describe");
        assertTrue(defaultDescribed.contains("Default configs for brokers in the cluster are:"), defaultDescribed);
        assertTrue(
                defaultDescribed.contains("log.retention.ms=604800000 sensitive=false "
                        + "synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.ms=604800000, "
                        + "DEFAULT_CONFIG:log.retention.hours=168}"),
                defaultDescribed);
        ProcessResult refused = configs(
                cluster.bootstrap(),
                "--entity-type",
                "brokers",
                "--entity-name",
                self,
                "--alter",
                "--add-config",
                "num.io.threads=4");
        assertFalse(refused.succeeded(), refused::describe);
        assertTrue(
                refused.describe().contains("Cannot update these configs dynamically: Set(num.io.threads)"),
                refused::describe);

        // The controller dies: the next one has every config; the killed broker comes back with them.
        cluster.broker(controller).kill9();
        cluster.probe()
                .awaitController(
                        "a new controller",
                        cluster.sessionTimeout().plus(SETTLE),
                        c -> c.brokerId() != controller && c.brokerId() >= 0);
        configsOk(
                cluster.bootstrap(),
                "--entity-type",
                "topics",
                "--entity-name",
                TOPIC,
                "--alter",
                "--add-config",
                "retention.ms=3600000");
        awaitEveryBroker(TOPIC, null, "retention.ms", "3600000", ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        cluster.broker(controller).restart();
        String restarted = cluster.broker(controller).bootstrap();
        Poll.until(
                "restarted broker " + controller + " describes the configs set before and after its death",
                SETTLE,
                () -> List.of(
                        OneRequest.describeConfig(restarted, TOPIC, null, "segment.bytes")
                                .value(),
                        OneRequest.describeConfig(restarted, TOPIC, null, "retention.ms")
                                .value(),
                        OneRequest.describeConfig(restarted, null, self, "leader.replication.throttled.rate")
                                .value(),
                        OneRequest.describeConfig(restarted, null, self, "log.retention.ms")
                                .value()),
                v -> v.equals(List.of("2048", "3600000", "1000000", "604800000")));
    }

    @Test
    void shouldAnswerAdminClientErrorsLikeKafka() throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            createReplicatedTopic(admin);
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, TOPIC);

            admin.incrementalAlterConfigs(
                            Map.of(topic, List.of(set("retention.ms", "1234"))),
                            new AlterConfigsOptions().validateOnly(true))
                    .all()
                    .get();
            assertEquals(
                    ConfigEntry.ConfigSource.DEFAULT_CONFIG,
                    entry(admin, topic, "retention.ms").source(),
                    "validateOnly changes nothing");

            assertRefused(
                    admin, topic, set("retention.ms", "soon"), InvalidConfigurationException.class, "retention.ms");
            assertRefused(admin, topic, set("no.such.key", "1"), InvalidConfigurationException.class, "no.such.key");
            assertRefused(
                    admin,
                    topic,
                    new AlterConfigOp(new ConfigEntry("retention.ms", "1"), AlterConfigOp.OpType.APPEND),
                    InvalidConfigurationException.class,
                    "retention.ms");
            assertRefused(
                    admin,
                    topic,
                    set("leader.replication.throttled.replicas", "0-1"),
                    InvalidConfigurationException.class,
                    "leader.replication.throttled.replicas");
            assertRefused(
                    admin,
                    topic,
                    set("delete.retention.ms", "-5"),
                    InvalidConfigurationException.class,
                    "delete.retention.ms");
            assertRefused(
                    admin,
                    new ConfigResource(ConfigResource.Type.TOPIC, "missing"),
                    set("retention.ms", "1"),
                    UnknownTopicOrPartitionException.class,
                    "missing");
            int controller = cluster.probe().controller().brokerId();
            assertRefused(
                    admin,
                    new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(controller)),
                    set("num.network.threads", "2"),
                    InvalidRequestException.class,
                    "num.network.threads");
            assertRefused(
                    admin,
                    new ConfigResource(ConfigResource.Type.BROKER, ""),
                    set("log.retention.ms", "x"),
                    InvalidConfigurationException.class,
                    "log.retention.ms");

            // APPEND and SUBTRACT on a list key, from its default (empty).
            AlterConfigOp append = new AlterConfigOp(
                    new ConfigEntry("follower.replication.throttled.replicas", "0:1,0:2"), AlterConfigOp.OpType.APPEND);
            AlterConfigOp subtract = new AlterConfigOp(
                    new ConfigEntry("follower.replication.throttled.replicas", "0:1"), AlterConfigOp.OpType.SUBTRACT);
            admin.incrementalAlterConfigs(Map.of(topic, List.of(append))).all().get();
            admin.incrementalAlterConfigs(Map.of(topic, List.of(subtract)))
                    .all()
                    .get();
            Poll.until(
                    "the subtraction applied",
                    SETTLE,
                    () -> entry(admin, topic, "follower.replication.throttled.replicas")
                            .value(),
                    "0:2"::equals);

            // The legacy AlterConfigs replaces the whole dynamic set.
            @SuppressWarnings("deprecation")
            var legacy = admin.alterConfigs(Map.of(topic, new Config(List.of(new ConfigEntry("retention.ms", "777")))));
            legacy.all().get();
            Config after = Poll.until(
                    "the replacement applied",
                    SETTLE,
                    () -> admin.describeConfigs(List.of(topic)).all().get().get(topic),
                    c -> "777".equals(c.get("retention.ms").value()));
            assertEquals(
                    ConfigEntry.ConfigSource.DEFAULT_CONFIG,
                    after.get("follower.replication.throttled.replicas").source());
        }
    }

    private static AlterConfigOp set(String key, String value) {
        return new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET);
    }

    private static ConfigEntry entry(Admin admin, ConfigResource resource, String key) throws Exception {
        return admin.describeConfigs(List.of(resource))
                .all()
                .get()
                .get(resource)
                .get(key);
    }

    private static void assertRefused(
            Admin admin, ConfigResource resource, AlterConfigOp op, Class<? extends Throwable> expected, String named) {
        ExecutionException e = assertThrows(
                ExecutionException.class,
                () -> admin.incrementalAlterConfigs(Map.of(resource, List.of(op)))
                        .all()
                        .get());
        assertInstanceOf(expected, e.getCause(), e::toString);
        assertTrue(e.getCause().getMessage().contains(named), e.getCause()::getMessage);
    }
}
