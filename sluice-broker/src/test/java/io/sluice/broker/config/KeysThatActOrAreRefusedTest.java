package io.sluice.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.controller.ConfigError;
import io.sluice.cluster.controller.ConfigRefusedException;
import io.sluice.cluster.controller.ConfigResource;
import io.sluice.cluster.state.ClusterState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every key Sluice accepts either acts or is refused: a topic key kept only for Kafka compatibility takes its default
 * alone at creation; the log-directory throttle (Sluice has no such moves) takes only "no limit" but may be deleted;
 * queued.max.requests, not acted on, is reported as ignored; a log.cleaner.* name Kafka does not have is unknown, not
 * ignored; the cleaner's thread count changes live at most by half or double, as in Kafka.
 */
class KeysThatActOrAreRefusedTest {
    private static final ConfigResource BROKER_0 = new ConfigResource(ConfigResource.Type.BROKER, "0");

    private final DynamicConfigSchema schema =
            new DynamicConfigSchema(new DynamicBrokerConfig(BrokerConfig.fromMap(Map.of("log.cleaner.threads", "2"))));

    @Test
    void shouldTakeOnlyTheDefaultOfATopicKeySluiceDoesNotActOn() {
        assertEquals(Map.of("preallocate", "false"), TopicConfigs.validateNew(Map.of("preallocate", "false")));
        for (Map.Entry<String, String> other : Map.of(
                        "preallocate",
                        "true",
                        "segment.jitter.ms",
                        "5",
                        "message.downconversion.enable",
                        "false",
                        "remote.storage.enable",
                        "true")
                .entrySet()) {
            ConfigException refused = assertThrows(
                    ConfigException.class, () -> TopicConfigs.validateNew(Map.ofEntries(other)), other::toString);
            assertTrue(refused.getMessage().contains("does not act on it"), refused.getMessage());
        }
        assertEquals(
                Map.of("preallocate", "true"),
                TopicConfigs.validate(Map.of("preallocate", "true")),
                "a topic stored before keeps loading");
    }

    @Test
    void shouldRefuseALogDirectoryThrottleButLetItBeDeleted() throws Exception {
        String key = BrokerConfigKeys.REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND;
        assertThrows(ConfigException.class, () -> BrokerConfig.fromMap(Map.of(key, "1000")));
        ConfigRefusedException refused = assertThrows(
                ConfigRefusedException.class,
                () -> schema.validate(BROKER_0, Map.of(), Map.of(key, "1000"), ClusterState.EMPTY));
        assertEquals(ConfigError.INVALID_CONFIG, refused.error());
        schema.validate(BROKER_0, Map.of(key, String.valueOf(Long.MAX_VALUE)), Map.of(), ClusterState.EMPTY);
    }

    @Test
    void shouldReportKeysItDoesNotActOnAsIgnoredAndUnknownCleanerNamesAsUnknown() {
        BrokerConfig config =
                BrokerConfig.fromMap(Map.of("queued.max.requests", "100", "log.cleaner.dedupe.buffer.load", "0.5"));
        assertEquals(List.of("queued.max.requests"), config.ignoredKeys());
        assertEquals(List.of("log.cleaner.dedupe.buffer.load"), config.unknownKeys());
        assertTrue(BrokerConfig.ignoredKafkaKeys().contains("queued.max.requests"));
    }

    @Test
    void shouldChangeCleanerThreadsLiveByAtMostHalfOrDouble() throws Exception {
        String threads = BrokerConfigKeys.LOG_CLEANER_THREADS;
        schema.validate(BROKER_0, Map.of(), Map.of(threads, "4"), ClusterState.EMPTY);
        schema.validate(BROKER_0, Map.of(), Map.of(threads, "1"), ClusterState.EMPTY);
        ConfigRefusedException more = assertThrows(
                ConfigRefusedException.class,
                () -> schema.validate(BROKER_0, Map.of(), Map.of(threads, "5"), ClusterState.EMPTY));
        assertEquals(ConfigError.INVALID_CONFIG, more.error());
        assertEquals(
                "Log cleaner threads cannot be increased to more than double the current value 2", more.getMessage());
        ConfigRefusedException zero = assertThrows(
                ConfigRefusedException.class,
                () -> schema.validate(BROKER_0, Map.of(), Map.of(threads, "0"), ClusterState.EMPTY));
        assertEquals(ConfigError.INVALID_CONFIG, zero.error());
        assertTrue(DynamicBrokerKeys.isDynamic(BrokerConfigKeys.LOG_CLEANER_IO_MAX_BYTES_PER_SECOND));
        assertTrue(!DynamicBrokerKeys.isDynamic(BrokerConfigKeys.LOG_CLEANER_ENABLE), "log.cleaner.enable is static");
    }
}
