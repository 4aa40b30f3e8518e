package io.sluice.cluster.controller;

import static io.sluice.cluster.controller.ConfigOperation.Type.APPEND;
import static io.sluice.cluster.controller.ConfigOperation.Type.DELETE;
import static io.sluice.cluster.controller.ConfigOperation.Type.SET;
import static io.sluice.cluster.controller.ConfigOperation.Type.SUBTRACT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.ConfigRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The controller's config operation: incremental and whole-set changes, per-resource errors, validate-only. */
class ConfigControlTest {
    static final UUID ID = new UUID(1, 2);

    /** Knows retention.ms (a number) and cleanup.policy (a list, default "delete"); broker key a.b is static. */
    static final ConfigSchema SCHEMA = new ConfigSchema() {
        @Override
        public boolean isList(ConfigResource.Type type, String key) {
            return key.equals("cleanup.policy") || key.equals("throttled.replicas");
        }

        @Override
        public String baseValue(ConfigResource resource, String key) {
            return key.equals("cleanup.policy") ? "delete" : "";
        }

        @Override
        public void validate(
                ConfigResource resource, Map<String, String> current, Map<String, String> next, ClusterState state)
                throws ConfigRefusedException {
            for (Map.Entry<String, String> e : next.entrySet()) {
                if (!Set.of("retention.ms", "cleanup.policy", "throttled.replicas", "a.b")
                        .contains(e.getKey())) {
                    throw new ConfigRefusedException(ConfigError.INVALID_CONFIG, "Unknown config " + e.getKey());
                }
                if (e.getKey().equals("retention.ms") && !e.getValue().matches("-?\\d+")) {
                    throw new ConfigRefusedException(
                            ConfigError.INVALID_CONFIG,
                            "Invalid value " + e.getValue() + " for configuration retention.ms");
                }
                if (e.getKey().equals("a.b") && !e.getValue().equals(current.get("a.b"))) {
                    throw new ConfigRefusedException(
                            ConfigError.INVALID_REQUEST, "Cannot update these configs dynamically: [a.b]");
                }
            }
        }
    };

    static ClusterState state() {
        TopicState t = new TopicState(ID, "t", Map.of("retention.ms", "5"), new PartitionState[] {
            new PartitionState(new int[] {1}, 1, 0, new int[] {1}, 0)
        });
        return ClusterState.of(1, 0, List.of(ZkTesting.broker(1, "")), List.of(t));
    }

    static ConfigChange change(ConfigResource.Type type, String name, ConfigOperation... ops) {
        return new ConfigChange(new ConfigResource(type, name), List.of(ops), false);
    }

    static ClusterState applied(ClusterState s, List<ConfigRecord> records) {
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = s.controllerEpoch();
        d.prevSeq = s.appliedSeq();
        d.configChanges.addAll(records);
        return s.apply(d, s.appliedSeq() + 1);
    }

    @Test
    void shouldSetDeleteAppendAndSubtract() {
        List<ConfigRecord> out = new ArrayList<>();
        List<ConfigChangeResult> results = ConfigControl.alter(
                state(),
                List.of(
                        change(
                                ConfigResource.Type.TOPIC,
                                "t",
                                new ConfigOperation(DELETE, "retention.ms", null),
                                new ConfigOperation(APPEND, "cleanup.policy", "compact")),
                        change(ConfigResource.Type.BROKER, "", new ConfigOperation(SET, "retention.ms", " 9 ")),
                        change(
                                ConfigResource.Type.BROKER,
                                "1",
                                new ConfigOperation(APPEND, "throttled.replicas", "0:1,1:1"))),
                SCHEMA,
                false,
                out);
        results.forEach(r -> assertEquals(ConfigError.NONE, r.error(), r.toString()));
        ClusterState after = applied(state(), out);
        assertEquals(
                Map.of("cleanup.policy", "delete,compact"), after.topic("t").configs());
        assertEquals(Map.of("retention.ms", "9"), after.brokerConfigs(ClusterState.CLUSTER_DEFAULT_BROKER));
        assertEquals(Map.of("throttled.replicas", "0:1,1:1"), after.brokerConfigs(1));

        out.clear();
        ConfigControl.alter(
                after,
                List.of(change(
                        ConfigResource.Type.BROKER, "1", new ConfigOperation(SUBTRACT, "throttled.replicas", "0:1"))),
                SCHEMA,
                false,
                out);
        assertEquals(Map.of("throttled.replicas", "1:1"), applied(after, out).brokerConfigs(1));
    }

    @Test
    void shouldReplaceTheWholeSetForAlterConfigs() {
        List<ConfigRecord> out = new ArrayList<>();
        ConfigControl.alter(
                state(),
                List.of(new ConfigChange(
                        new ConfigResource(ConfigResource.Type.TOPIC, "t"),
                        List.of(new ConfigOperation(SET, "cleanup.policy", "compact")),
                        true)),
                SCHEMA,
                false,
                out);
        assertEquals(
                Map.of("cleanup.policy", "compact"),
                applied(state(), out).topic("t").configs());
    }

    @Test
    void shouldAnswerEachResourceWithItsOwnError() {
        List<ConfigRecord> out = new ArrayList<>();
        List<ConfigChangeResult> results = ConfigControl.alter(
                state(),
                List.of(
                        change(ConfigResource.Type.TOPIC, "missing", new ConfigOperation(SET, "retention.ms", "1")),
                        change(ConfigResource.Type.TOPIC, "t", new ConfigOperation(SET, "retention.ms", "soon")),
                        change(ConfigResource.Type.TOPIC, "t", new ConfigOperation(SET, "no.such.key", "1")),
                        change(ConfigResource.Type.TOPIC, "t", new ConfigOperation(APPEND, "retention.ms", "1")),
                        change(
                                ConfigResource.Type.TOPIC,
                                "t",
                                new ConfigOperation(SET, "retention.ms", "1"),
                                new ConfigOperation(DELETE, "retention.ms", null)),
                        change(ConfigResource.Type.BROKER, "x", new ConfigOperation(SET, "retention.ms", "1")),
                        change(ConfigResource.Type.BROKER, "1", new ConfigOperation(SET, "a.b", "1")),
                        change(ConfigResource.Type.BROKER, "1", new ConfigOperation(SET, "retention.ms", "3"))),
                SCHEMA,
                false,
                out);
        assertEquals(
                List.of(
                        ConfigError.UNKNOWN_TOPIC_OR_PARTITION,
                        ConfigError.INVALID_CONFIG,
                        ConfigError.INVALID_CONFIG,
                        ConfigError.INVALID_CONFIG,
                        ConfigError.INVALID_REQUEST,
                        ConfigError.INVALID_REQUEST,
                        ConfigError.INVALID_REQUEST,
                        ConfigError.NONE),
                results.stream().map(ConfigChangeResult::error).toList());
        assertTrue(
                results.get(1).message().contains("retention.ms"),
                results.get(1).message());
        assertTrue(
                results.get(2).message().contains("no.such.key"), results.get(2).message());
        assertEquals(1, out.size(), "only the accepted change is published");
    }

    @Test
    void shouldPublishNothingWhenValidateOnlyOrUnchanged() {
        List<ConfigRecord> out = new ArrayList<>();
        List<ConfigChangeResult> results = ConfigControl.alter(
                state(),
                List.of(change(ConfigResource.Type.TOPIC, "t", new ConfigOperation(SET, "retention.ms", "7"))),
                SCHEMA,
                true,
                out);
        assertEquals(ConfigError.NONE, results.get(0).error());
        assertTrue(out.isEmpty());
        ConfigControl.alter(
                state(),
                List.of(change(ConfigResource.Type.TOPIC, "t", new ConfigOperation(SET, "retention.ms", "5"))),
                SCHEMA,
                false,
                out);
        assertTrue(out.isEmpty(), "same value: no delta");
    }
}
