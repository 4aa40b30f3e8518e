package io.sluice.cluster.controller;

import static io.sluice.cluster.controller.ConfigControlTest.applied;
import static io.sluice.cluster.controller.ConfigControlTest.state;
import static io.sluice.cluster.controller.ConfigOperation.Type.DELETE;
import static io.sluice.cluster.controller.ConfigOperation.Type.SET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.wire.ConfigRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Client quota entities through the controller's config operation: one table record per call, refusals, validate-only. */
class ClientQuotaControlTest {
    /** Knows producer_byte_rate (a positive whole number) only. */
    static final ConfigSchema SCHEMA = new ConfigSchema() {
        @Override
        public boolean isList(ConfigResource.Type type, String key) {
            return false;
        }

        @Override
        public String baseValue(ConfigResource resource, String key) {
            return null;
        }

        @Override
        public void validate(
                ConfigResource resource, Map<String, String> current, Map<String, String> next, ClusterState state)
                throws ConfigRefusedException {
            for (Map.Entry<String, String> e : next.entrySet()) {
                if (!e.getKey().equals("producer_byte_rate")) {
                    throw new ConfigRefusedException(
                            ConfigError.INVALID_REQUEST, "Invalid configuration key " + e.getKey());
                }
            }
        }
    };

    static ConfigChange quota(ConfigResource.Type type, String name, ConfigOperation... ops) {
        return new ConfigChange(new ConfigResource(type, name), List.of(ops), false);
    }

    @Test
    void shouldPublishOneTableForEveryQuotaChangeOfACall() {
        List<ConfigRecord> out = new ArrayList<>();
        List<ConfigChangeResult> results = ConfigControl.alter(
                state(),
                List.of(
                        quota(
                                ConfigResource.Type.CLIENT,
                                "app-1",
                                new ConfigOperation(SET, "producer_byte_rate", "1024")),
                        quota(
                                ConfigResource.Type.USER,
                                "alice/clients/<default>",
                                new ConfigOperation(SET, "producer_byte_rate", "2048")),
                        quota(ConfigResource.Type.IP, "<default>", new ConfigOperation(SET, "nonsense", "1"))),
                SCHEMA,
                false,
                out);
        assertEquals(
                List.of(ConfigError.NONE, ConfigError.NONE, ConfigError.INVALID_REQUEST),
                results.stream().map(ConfigChangeResult::error).toList());
        assertEquals("Invalid configuration key nonsense", results.get(2).message());
        assertEquals(1, out.size(), "one table record for the call");
        ClusterState after = applied(state(), out);
        assertEquals(
                Map.of(
                        "clients/app-1",
                        Map.of("producer_byte_rate", "1024"),
                        "users/alice/clients/<default>",
                        Map.of("producer_byte_rate", "2048")),
                after.clientQuotaConfigs());

        List<ConfigRecord> removal = new ArrayList<>();
        ConfigControl.alter(
                after,
                List.of(quota(
                        ConfigResource.Type.CLIENT, "app-1", new ConfigOperation(DELETE, "producer_byte_rate", null))),
                SCHEMA,
                false,
                removal);
        assertEquals(
                Map.of("users/alice/clients/<default>", Map.of("producer_byte_rate", "2048")),
                applied(after, removal).clientQuotaConfigs(),
                "the entity goes with its last quota");
    }

    @Test
    void shouldPublishNothingWhenValidatingOrWhenNothingChanges() {
        List<ConfigRecord> out = new ArrayList<>();
        ConfigChange set =
                quota(ConfigResource.Type.CLIENT, "app-1", new ConfigOperation(SET, "producer_byte_rate", "1"));
        assertEquals(
                ConfigError.NONE,
                ConfigControl.alter(state(), List.of(set), SCHEMA, true, out)
                        .get(0)
                        .error());
        assertTrue(out.isEmpty(), "validate-only");
        ConfigControl.alter(state(), List.of(set), SCHEMA, false, out);
        ClusterState after = applied(state(), out);
        List<ConfigRecord> again = new ArrayList<>();
        ConfigControl.alter(
                after,
                List.of(
                        set,
                        quota(
                                ConfigResource.Type.CLIENT,
                                "app-2",
                                new ConfigOperation(DELETE, "producer_byte_rate", null))),
                SCHEMA,
                false,
                again);
        assertTrue(again.isEmpty(), "the same value and deleting what is not there change nothing");
    }

    @Test
    void shouldNameEntitiesAsKafkasZooKeeperModeDoes() {
        assertEquals("clients/app-1", new ConfigResource(ConfigResource.Type.CLIENT, "app-1").quotaPath());
        assertEquals(
                "users/<default>/clients/app-1",
                new ConfigResource(ConfigResource.Type.USER, "<default>/clients/app-1").quotaPath());
        assertEquals("ips/10.0.0.1", new ConfigResource(ConfigResource.Type.IP, "10.0.0.1").quotaPath());
        assertTrue(ConfigResource.Type.USER.isClientQuota() && !ConfigResource.Type.TOPIC.isClientQuota());
    }
}
