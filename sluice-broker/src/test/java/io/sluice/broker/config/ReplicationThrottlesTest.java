package io.sluice.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.controller.ConfigError;
import io.sluice.cluster.controller.ConfigRefusedException;
import io.sluice.cluster.controller.ConfigResource;
import io.sluice.cluster.state.ClusterState;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The throttle view, the broker's layered configuration and the rules the controller applies to changes. */
class ReplicationThrottlesTest {
    private static final BrokerConfig STATIC =
            BrokerConfig.fromMap(Map.of("broker.id", "2", "log.retention.hours", "5"));

    @Test
    void shouldExposeRatesAndThrottledReplicas() {
        ReplicationThrottles throttles = new ReplicationThrottles();
        assertEquals(Long.MAX_VALUE, throttles.leaderRate());
        BrokerConfig live = STATIC.withOverrides(
                Map.of("leader.replication.throttled.rate", "1000", "follower.replication.throttled.rate", "2000"));
        throttles.update(
                live,
                Map.of(
                        "a",
                                Map.of(
                                        "leader.replication.throttled.replicas",
                                        "0:1, 1:2",
                                        "follower.replication.throttled.replicas",
                                        "0:3"),
                        "b", Map.of("follower.replication.throttled.replicas", "*")));
        assertEquals(1000, throttles.leaderRate());
        assertEquals(2000, throttles.followerRate());
        assertEquals(Long.MAX_VALUE, throttles.alterLogDirsRate());
        assertTrue(throttles.isLeaderThrottled("a", 0, 1));
        assertTrue(throttles.isLeaderThrottled("a", 1, 2));
        assertFalse(throttles.isLeaderThrottled("a", 1, 1));
        assertTrue(throttles.isFollowerThrottled("a", 0, 3));
        assertFalse(throttles.isFollowerThrottled("a", 0, 1));
        assertTrue(throttles.isFollowerThrottled("b", 7, 9));
        assertFalse(throttles.isLeaderThrottled("b", 7, 9));
        assertFalse(throttles.isLeaderThrottled("unknown", 0, 1));
    }

    @Test
    void shouldLayerDynamicOverStaticWithSources() {
        DynamicBrokerConfig dynamic = new DynamicBrokerConfig(STATIC);
        assertTrue(dynamic.update(
                Map.of("log.retention.ms", "1000", "min.insync.replicas", "2"), Map.of("min.insync.replicas", "3")));
        assertEquals(1000, dynamic.current().log().retentionMs(), "log.retention.ms wins over the static hours");
        assertEquals(3, dynamic.current().minInsyncReplicas());
        EffectiveTopicConfig topic = TopicConfigs.resolve(dynamic.live(), Map.of());
        Map<String, ConfigEntry> byName = new java.util.HashMap<>();
        topic.describe().forEach(e -> byName.put(e.name(), e));
        assertEquals(
                ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
                byName.get("retention.ms").source());
        assertEquals(
                ConfigSource.DYNAMIC_BROKER_CONFIG,
                byName.get("min.insync.replicas").source());
        assertEquals(ConfigSource.DEFAULT_CONFIG, byName.get("segment.bytes").source());
        assertEquals(
                "log.retention.ms", byName.get("retention.ms").synonyms().get(0).name());
        assertFalse(
                dynamic.update(
                        Map.of("log.retention.ms", "1000", "min.insync.replicas", "2"),
                        Map.of("min.insync.replicas", "3")),
                "same values: nothing changed");
        assertFalse(dynamic.update(Map.of("log.retention.ms", "soon"), Map.of()), "an unreadable set is not applied");
        assertEquals(3, dynamic.current().minInsyncReplicas());
    }

    @Test
    void shouldRefuseChangesWithKafkasErrors() {
        DynamicConfigSchema schema = new DynamicConfigSchema(new DynamicBrokerConfig(STATIC));
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "t");
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "2");
        assertEquals(ConfigError.INVALID_CONFIG, refusal(schema, topic, Map.of("retention.ms", "x")));
        assertEquals(ConfigError.INVALID_CONFIG, refusal(schema, topic, Map.of("nope", "1")));
        assertEquals(ConfigError.INVALID_CONFIG, refusal(schema, topic, Map.of("preallocate", "true")));
        assertEquals(
                ConfigError.INVALID_CONFIG,
                refusal(schema, topic, Map.of("leader.replication.throttled.replicas", "1:x")));
        assertEquals(ConfigError.INVALID_REQUEST, refusal(schema, broker, Map.of("num.io.threads", "2")));
        assertEquals(ConfigError.INVALID_CONFIG, refusal(schema, broker, Map.of("no.such.broker.key", "2")));
        assertEquals(ConfigError.INVALID_CONFIG, refusal(schema, broker, Map.of("message.max.bytes", "-5")));
        assertEquals(
                ConfigError.NONE,
                refusal(
                        schema,
                        broker,
                        Map.of("message.max.bytes", "5000", "follower.replication.throttled.rate", "10")));
        assertEquals(ConfigError.NONE, refusal(schema, topic, Map.of("leader.replication.throttled.replicas", "*")));
        assertTrue(schema.isList(ConfigResource.Type.TOPIC, "cleanup.policy"));
        assertFalse(schema.isList(ConfigResource.Type.TOPIC, "retention.ms"));
        assertEquals("delete", schema.baseValue(topic, "cleanup.policy"));
    }

    private static ConfigError refusal(DynamicConfigSchema schema, ConfigResource resource, Map<String, String> next) {
        try {
            schema.validate(resource, Map.of(), next, ClusterState.EMPTY);
            return ConfigError.NONE;
        } catch (ConfigRefusedException e) {
            assertTrue(e.getMessage().contains(next.keySet().iterator().next()) || next.size() > 1, e.getMessage());
            return e.error();
        }
    }

    @Test
    void shouldNotAcceptNegativeRates() {
        assertThrows(
                ConfigException.class, () -> STATIC.withOverrides(Map.of("leader.replication.throttled.rate", "0")));
    }
}
