package io.sluice.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.LogConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicConfigsTest {

    private static final BrokerConfig DEFAULT_BROKER = BrokerConfig.fromMap(Map.of());

    @Test
    void shouldInheritBrokerDefaults() {
        EffectiveTopicConfig topic = TopicConfigs.resolve(DEFAULT_BROKER, Map.of());

        assertEquals(List.of("delete"), topic.cleanupPolicy());
        assertTrue(topic.deleteEnabled());
        assertEquals("producer", topic.compressionType());
        assertEquals(168L * 3600 * 1000, topic.retentionMs());
        assertEquals(-1L, topic.retentionBytes());
        assertEquals(1073741824, topic.segmentBytes());
        assertEquals(168L * 3600 * 1000, topic.segmentMs());
        assertEquals(10485760, topic.segmentIndexBytes());
        assertEquals(1048588, topic.maxMessageBytes());
        assertEquals("CreateTime", topic.messageTimestampType());
        assertFalse(topic.logAppendTime());
        assertEquals(Long.MAX_VALUE, topic.flushMessages());
        assertEquals(Long.MAX_VALUE, topic.flushMs());
        assertEquals(4096, topic.indexIntervalBytes());
        assertEquals(60000L, topic.fileDeleteDelayMs());
        assertEquals(1, topic.minInsyncReplicas());
        assertEquals(Long.MAX_VALUE, topic.messageTimestampBeforeMaxMs());
        assertEquals(Long.MAX_VALUE, topic.messageTimestampAfterMaxMs());
    }

    @Test
    void shouldPreferOverridesOverBrokerValues() {
        BrokerConfig broker = BrokerConfig.fromMap(Map.of("log.retention.hours", "1", "log.segment.bytes", "2048"));
        EffectiveTopicConfig topic = TopicConfigs.resolve(
                broker,
                Map.of(
                        "retention.ms",
                        "1000",
                        "message.timestamp.type",
                        "LogAppendTime",
                        "cleanup.policy",
                        "compact,delete"));

        assertEquals(1000L, topic.retentionMs());
        assertEquals(2048, topic.segmentBytes());
        assertTrue(topic.logAppendTime());
        assertEquals(List.of("compact", "delete"), topic.cleanupPolicy());
        assertTrue(topic.deleteEnabled());
    }

    @Test
    void shouldBuildLogConfigFromEffectiveValues() {
        BrokerConfig broker =
                BrokerConfig.fromMap(Map.of("log.flush.interval.messages", "1", "producer.id.expiration.ms", "5000"));
        LogConfig log = TopicConfigs.resolve(
                        broker,
                        Map.of(
                                "segment.bytes",
                                "4096",
                                "retention.ms",
                                "-1",
                                "segment.index.bytes",
                                "1024",
                                "flush.ms",
                                "250"))
                .logConfig();

        assertEquals(4096, log.segmentBytes());
        assertEquals(-1L, log.retentionMs());
        assertEquals(1024, log.maxIndexSizeBytes());
        assertEquals(250L, log.flushIntervalMs());
        assertTrue(log.flushesEveryAppend());
        assertEquals(5000L, log.producerIdExpirationMs());
        assertEquals(
                LogConfig.defaults().toBuilder()
                        .producerIdExpirationMs(86400000L)
                        .build(),
                TopicConfigs.resolve(DEFAULT_BROKER, Map.of()).logConfig());
    }

    @Test
    void shouldReportSourcesForDescribeConfigs() {
        BrokerConfig broker =
                BrokerConfig.fromMap(Map.of("log.retention.minutes", "5", "message.max.bytes", "2000000"));
        EffectiveTopicConfig topic = TopicConfigs.resolve(broker, Map.of("segment.bytes", "4096"));
        Map<String, ConfigEntry> byName = new HashMap<>();
        for (ConfigEntry entry : topic.describe()) {
            byName.put(entry.name(), entry);
        }

        assertEntry(byName.get("segment.bytes"), "4096", ConfigSource.DYNAMIC_TOPIC_CONFIG, false);
        assertEntry(byName.get("retention.ms"), "300000", ConfigSource.STATIC_BROKER_CONFIG, false);
        assertEntry(byName.get("max.message.bytes"), "2000000", ConfigSource.STATIC_BROKER_CONFIG, false);
        assertEntry(byName.get("flush.messages"), String.valueOf(Long.MAX_VALUE), ConfigSource.DEFAULT_CONFIG, true);
        assertEntry(byName.get("cleanup.policy"), "delete", ConfigSource.DEFAULT_CONFIG, true);
        assertEntry(byName.get("preallocate"), "false", ConfigSource.DEFAULT_CONFIG, true);
        for (ConfigEntry entry : topic.describe()) {
            assertFalse(entry.readOnly(), entry.name());
            assertFalse(entry.sensitive(), entry.name());
            assertNotNull(entry.value(), entry.name());
            assertEquals(entry.value(), topic.valueText(entry.name()));
        }
        assertEquals(TopicConfigKeys.all().size(), topic.describe().size());
    }

    @Test
    void shouldDescribeBrokerKeysWithSourceReadOnlyUnlessDynamic() {
        BrokerConfig broker = BrokerConfig.fromMap(Map.of("num.partitions", "4"));
        List<ConfigEntry> entries = TopicConfigs.describeBroker(broker);

        assertEquals(BrokerConfig.brokerKeys().size(), entries.size());
        for (ConfigEntry entry : entries) {
            assertEquals(!DynamicBrokerKeys.isDynamic(entry.name()), entry.readOnly(), entry.name());
            if (entry.name().equals("num.partitions")) {
                assertEntry(entry, "4", ConfigSource.STATIC_BROKER_CONFIG, false);
            } else {
                assertEquals(ConfigSource.DEFAULT_CONFIG, entry.source(), entry.name());
                assertTrue(entry.isDefault(), entry.name());
            }
        }
    }

    @Test
    void shouldRefuseUnknownTopicKey() {
        ConfigException error =
                assertThrows(ConfigException.class, () -> TopicConfigs.validate(Map.of("retention.msec", "5")));
        assertEquals("retention.msec", error.key());
        assertTrue(error.getMessage().contains("unknown"), error.getMessage());
    }

    @Test
    void shouldRefuseInvalidTopicValuesNamingKeyAndValue() {
        List<Map.Entry<String, String>> bad = List.of(
                Map.entry("retention.ms", "-5"),
                Map.entry("retention.bytes", "-2"),
                Map.entry("segment.bytes", "63"),
                Map.entry("segment.index.bytes", "15"),
                Map.entry("max.message.bytes", "big"),
                Map.entry("message.timestamp.type", "Now"),
                Map.entry("compression.type", "brotli"),
                Map.entry("cleanup.policy", ""),
                Map.entry("min.insync.replicas", "0"),
                Map.entry("flush.messages", "0"),
                Map.entry("preallocate", "maybe"));
        for (Map.Entry<String, String> entry : bad) {
            ConfigException error = assertThrows(
                    ConfigException.class,
                    () -> TopicConfigs.validate(Map.of(entry.getKey(), entry.getValue())),
                    entry.getKey());
            assertEquals(entry.getKey(), error.key());
            assertTrue(error.getMessage().contains(entry.getKey()), error.getMessage());
        }
    }

    @Test
    void shouldNormalizeValidOverrides() {
        assertEquals(
                Map.of("retention.ms", "1000", "segment.bytes", "4096"),
                TopicConfigs.validate(Map.of("retention.ms", " 1000 ", "segment.bytes", "4096")));
    }

    @Test
    void shouldDocumentEveryTopicKeyWithBrokerSynonymsThatExist() {
        for (TopicConfigKey key : TopicConfigKeys.all()) {
            assertFalse(key.key().doc().isBlank(), key.name());
            for (String synonym : key.brokerSynonyms()) {
                assertTrue(
                        BrokerConfig.brokerKeys().stream()
                                .anyMatch(k -> k.name().equals(synonym)),
                        key.name() + " -> " + synonym);
            }
            assertEquals(key.brokerSynonyms().isEmpty(), key.brokerDefault() == null, key.name());
        }
    }

    private static void assertEntry(ConfigEntry entry, String value, ConfigSource source, boolean isDefault) {
        assertNotNull(entry);
        assertEquals(value, entry.value(), entry.name());
        assertEquals(source, entry.source(), entry.name());
        assertEquals(isDefault, entry.isDefault(), entry.name());
    }
}
