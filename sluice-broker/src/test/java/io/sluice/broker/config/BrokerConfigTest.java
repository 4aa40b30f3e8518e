package io.sluice.broker.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.group.GroupCoordinatorConfig;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BrokerConfigTest {

    @Test
    void shouldUseKafkaDefaultsWhenEmpty() {
        BrokerConfig config = BrokerConfig.fromMap(Map.of());

        assertEquals(0, config.brokerId());
        assertEquals(List.of(new Listener("PLAINTEXT", "127.0.0.1", 9092)), config.listeners());
        assertEquals(config.listeners(), config.advertisedListeners());
        assertEquals(List.of(Path.of("./data")), config.logDirs());
        assertEquals(1, config.numPartitions());
        assertEquals(1, config.defaultReplicationFactor());
        assertTrue(config.autoCreateTopicsEnable());
        assertTrue(config.deleteTopicEnable());
        assertEquals(1048588, config.messageMaxBytes());
        assertEquals(104857600, config.socketRequestMaxBytes());
        assertEquals(102400, config.socketSendBufferBytes());
        assertEquals(102400, config.socketReceiveBufferBytes());
        assertEquals(600000L, config.connectionsMaxIdleMs());
        assertEquals(3, config.numNetworkThreads());
        assertEquals(8, config.numIoThreads());
        assertEquals(1073741824, config.log().segmentBytes());
        assertEquals(168L * 3600 * 1000, config.log().rollMs());
        assertEquals(168L * 3600 * 1000, config.log().retentionMs());
        assertEquals(-1L, config.log().retentionBytes());
        assertEquals(300000L, config.log().retentionCheckIntervalMs());
        assertEquals(4096, config.log().indexIntervalBytes());
        assertEquals(10485760, config.log().indexSizeMaxBytes());
        assertEquals(Long.MAX_VALUE, config.log().flushIntervalMessages());
        assertEquals(Long.MAX_VALUE, config.log().flushIntervalMs());
        assertEquals(60000, config.log().flushOffsetCheckpointIntervalMs());
        assertEquals(60000L, config.log().fileDeleteDelayMs());
        assertEquals("CreateTime", config.log().messageTimestampType());
        assertEquals(Long.MAX_VALUE, config.log().messageTimestampBeforeMaxMs());
        assertEquals(Long.MAX_VALUE, config.log().messageTimestampAfterMaxMs());
        assertEquals("producer", config.log().compressionType());
        assertEquals(List.of("delete"), config.log().cleanupPolicy());
        assertEquals(Optional.empty(), config.zookeeperConnect());
        assertEquals(Optional.empty(), config.clusterId());
        GroupCoordinatorConfig groups = config.groupCoordinatorConfig();
        assertEquals(3000, groups.initialRebalanceDelayMs());
        assertEquals(6000, groups.minSessionTimeoutMs());
        assertEquals(1800000, groups.maxSessionTimeoutMs());
        assertEquals(Integer.MAX_VALUE, groups.maxSize());
        assertEquals(50, config.offsetsTopicNumPartitions());
        assertEquals(50, groups.offsetsTopicNumPartitions());
        assertEquals(10080L * 60 * 1000, groups.offsetsRetentionMs());
        assertEquals(600000L, groups.offsetsRetentionCheckIntervalMs());
        assertEquals(5000, groups.offsetsCommitTimeoutMs());
        assertEquals(GroupCoordinatorConfig.defaults(), groups, "the group coordinator's defaults are the keys'");
        assertEquals(86400000, config.producerIdExpirationMs());
        assertEquals(1, config.minInsyncReplicas());
        assertEquals(List.of(), config.unknownKeys());
        assertEquals(List.of(), config.ignoredKeys());
    }

    @Test
    void shouldReadTheControllerWaitsWithTheirDefaultsAndGivenValues() {
        BrokerConfig defaults = BrokerConfig.fromMap(Map.of());
        assertEquals(java.time.Duration.ofMillis(500), defaults.controllerRetryBackoff());
        assertEquals(30_000L, defaults.controllerWaitMs());
        assertEquals(15_000, defaults.controllerForwardRequestTimeoutMs());
        assertEquals(new ForwardingConfig(20_000, 250), ForwardingConfig.of(defaults));
        assertEquals(ForwardingConfig.of(defaults), ForwardingConfig.defaults());

        BrokerConfig given = BrokerConfig.fromMap(Map.of(
                BrokerConfigKeys.CONTROLLER_RETRY_BACKOFF_MS, "40",
                BrokerConfigKeys.CONTROLLER_WAIT_MS, "7000",
                BrokerConfigKeys.CONTROLLER_FORWARD_WAIT_MS, "0",
                BrokerConfigKeys.CONTROLLER_FORWARD_RETRY_BACKOFF_MS, "5",
                BrokerConfigKeys.CONTROLLER_FORWARD_REQUEST_TIMEOUT_MS, "900"));
        assertEquals(java.time.Duration.ofMillis(40), given.controllerRetryBackoff());
        assertEquals(7000L, given.controllerWaitMs());
        assertEquals(900, given.controllerForwardRequestTimeoutMs());
        assertEquals(new ForwardingConfig(0, 5), ForwardingConfig.of(given));
        assertThrows(
                ConfigException.class, () -> BrokerConfig.fromMap(Map.of(BrokerConfigKeys.CONTROLLER_WAIT_MS, "0")));
    }

    @Test
    void shouldReadTheMoveWriteKeysWithTheirDefaultsAndGivenValues() {
        MoveConfig defaults = MoveConfig.defaults();
        assertTrue(defaults.directIoEnable());
        assertTrue(defaults.pageCacheSpillEnable());

        MoveConfig given = MoveConfig.of(BrokerConfig.fromMap(Map.of(
                BrokerConfigKeys.MOVE_DIRECT_IO_ENABLE,
                "false",
                BrokerConfigKeys.MOVE_PAGE_CACHE_SPILL_ENABLE,
                "false")));
        assertFalse(given.directIoEnable());
        assertFalse(given.pageCacheSpillEnable());
        assertFalse(given.withChunkBytes(4096).pageCacheSpillEnable(), "a copy keeps the key");
        ConfigException error = assertThrows(
                ConfigException.class,
                () -> BrokerConfig.fromMap(Map.of(BrokerConfigKeys.MOVE_PAGE_CACHE_SPILL_ENABLE, "sometimes")));
        assertTrue(error.getMessage().contains(BrokerConfigKeys.MOVE_PAGE_CACHE_SPILL_ENABLE), error.getMessage());
    }

    @Test
    void shouldParseGivenValuesTrimmed() {
        BrokerConfig config = BrokerConfig.fromMap(Map.of(
                "broker.id", " 7 ",
                "num.partitions", "12",
                "auto.create.topics.enable", "FALSE",
                "log.segment.bytes", "1048576",
                "cluster.id", "abc",
                "zookeeper.connect", "zk1:2181,zk2:2181/sluice"));

        assertEquals(7, config.brokerId());
        assertEquals(12, config.numPartitions());
        assertFalse(config.autoCreateTopicsEnable());
        assertEquals(1048576, config.log().segmentBytes());
        assertEquals(Optional.of("abc"), config.clusterId());
        assertEquals(Optional.of("zk1:2181,zk2:2181/sluice"), config.zookeeperConnect());
        assertTrue(config.isExplicit("broker.id"));
        assertFalse(config.isExplicit("num.io.threads"));
        assertEquals("7", config.explicitValues().get("broker.id"));
    }

    @Test
    void shouldPreferRetentionMsOverMinutesOverHours() {
        assertEquals(
                5000L,
                BrokerConfig.fromMap(Map.of(
                                "log.retention.ms", "5000", "log.retention.minutes", "3", "log.retention.hours", "2"))
                        .log()
                        .retentionMs());
        assertEquals(
                180000L,
                BrokerConfig.fromMap(Map.of("log.retention.minutes", "3", "log.retention.hours", "2"))
                        .log()
                        .retentionMs());
        assertEquals(
                7200000L,
                BrokerConfig.fromMap(Map.of("log.retention.hours", "2")).log().retentionMs());
        assertEquals(
                -1L,
                BrokerConfig.fromMap(Map.of("log.retention.hours", "-1")).log().retentionMs());
        assertEquals(
                -1L,
                BrokerConfig.fromMap(Map.of("log.retention.ms", "-1", "log.retention.hours", "2"))
                        .log()
                        .retentionMs());
    }

    @Test
    void shouldPreferRollMsOverHours() {
        assertEquals(
                1234L,
                BrokerConfig.fromMap(Map.of("log.roll.ms", "1234", "log.roll.hours", "1"))
                        .log()
                        .rollMs());
        assertEquals(
                3600000L,
                BrokerConfig.fromMap(Map.of("log.roll.hours", "1")).log().rollMs());
    }

    @Test
    void shouldFallBackFromFlushIntervalMsToSchedulerInterval() {
        assertEquals(
                500L,
                BrokerConfig.fromMap(Map.of("log.flush.scheduler.interval.ms", "500"))
                        .log()
                        .flushIntervalMs());
        assertEquals(
                20L,
                BrokerConfig.fromMap(Map.of("log.flush.interval.ms", "20", "log.flush.scheduler.interval.ms", "500"))
                        .log()
                        .flushIntervalMs());
    }

    @Test
    void shouldPreferLogDirsOverLogDir() {
        assertEquals(
                List.of(Path.of("/a"), Path.of("/b")),
                BrokerConfig.fromMap(Map.of("log.dirs", "/a, /b", "log.dir", "/c"))
                        .logDirs());
        assertEquals(
                List.of(Path.of("/c")),
                BrokerConfig.fromMap(Map.of("log.dir", "/c")).logDirs());
    }

    @Test
    void shouldUseNodeIdWhenBrokerIdIsAbsent() {
        assertEquals(3, BrokerConfig.fromMap(Map.of("node.id", "3")).brokerId());
        assertEquals(
                3,
                BrokerConfig.fromMap(Map.of("node.id", "3", "broker.id", "3")).brokerId());
        ConfigException error = assertThrows(
                ConfigException.class, () -> BrokerConfig.fromMap(Map.of("node.id", "3", "broker.id", "4")));
        assertEquals("node.id", error.key());
    }

    @Test
    void shouldSeparateUnknownFromIgnoredKeys() {
        BrokerConfig config = BrokerConfig.fromMap(Map.of(
                "num.recovery.threads.per.data.dir", "1",
                "offsets.topic.segment.bytes", "104857600",
                "transaction.state.log.min.isr", "1",
                "group.coordinator.rebalance.protocols", "classic",
                "num.partitons", "3",
                "foo.bar", "x"));

        assertEquals(
                List.of(
                        "group.coordinator.rebalance.protocols",
                        "num.recovery.threads.per.data.dir",
                        "offsets.topic.segment.bytes",
                        "transaction.state.log.min.isr"),
                config.ignoredKeys());
        assertEquals(List.of("foo.bar", "num.partitons"), config.unknownKeys());
        assertEquals(1, config.numPartitions());
    }

    @Test
    void shouldRefuseInvalidValuesNamingKeyAndValue() {
        assertRefused("num.partitions", "three", "32-bit integer");
        assertRefused("num.partitions", "0", "at least 1");
        assertRefused("broker.id", "-2", "at least 0");
        assertRefused("auto.create.topics.enable", "yes", "true or false");
        assertRefused("log.segment.bytes", "63", "at least 64");
        assertRefused("log.segment.bytes", "4294967296", "32-bit integer");
        assertRefused("log.retention.ms", "-2", "at least -1");
        assertRefused("log.flush.interval.messages", "0", "at least 1");
        assertRefused("compression.type", "brotli", "one of");
        assertRefused("log.message.timestamp.type", "createtime", "one of");
        assertRefused("log.cleanup.policy", "delete,shred", "shred");
        assertRefused("socket.request.max.bytes", "", "32-bit integer");
        assertRefused("zookeeper.connect", " ", "must not be empty");
        assertRefused("group.initial.rebalance.delay.ms", "-1", "at least 0");
        assertRefused("group.min.session.timeout.ms", "-1", "at least 0");
        assertRefused("group.max.size", "0", "at least 1");
        assertRefused("offsets.topic.num.partitions", "0", "at least 1");
        assertRefused("offsets.commit.timeout.ms", "0", "at least 1");
        assertRefused("offsets.retention.minutes", "0", "at least 1");
        assertRefused("offsets.retention.check.interval.ms", "0", "at least 1");
        assertRefused("group.max.size", "many", "32-bit integer");
        assertRefused("offset.metadata.max.bytes", "-1", "at least 0");
        assertRefused("sluice.group.member.metadata.max.bytes", "-1", "at least 0");
    }

    @Test
    void shouldHandTheGivenGroupKeysToTheGroupCoordinator() {
        GroupCoordinatorConfig groups = BrokerConfig.fromMap(Map.of(
                        "group.initial.rebalance.delay.ms", "0",
                        "group.min.session.timeout.ms", "100",
                        "group.max.session.timeout.ms", "200",
                        "group.max.size", "7",
                        "offsets.topic.num.partitions", "3",
                        "offsets.commit.timeout.ms", "900",
                        "offsets.retention.minutes", "2",
                        "offsets.retention.check.interval.ms", "1000",
                        "offset.metadata.max.bytes", "64",
                        "sluice.group.member.metadata.max.bytes", "2048"))
                .groupCoordinatorConfig();

        assertEquals(new GroupCoordinatorConfig(0, 100, 200, 7, 2, 1000L, 64, 3, 2048, 900), groups);
        assertEquals(120_000L, groups.offsetsRetentionMs());
    }

    @Test
    void shouldRefuseMinSessionTimeoutAboveMax() {
        ConfigException error = assertThrows(
                ConfigException.class,
                () -> BrokerConfig.fromMap(
                        Map.of("group.min.session.timeout.ms", "10000", "group.max.session.timeout.ms", "9000")));
        assertEquals("group.min.session.timeout.ms", error.key());
        assertTrue(error.getMessage().contains("9000"), error.getMessage());
    }

    @Test
    void shouldDocumentEveryBrokerKeyOnce() {
        Set<String> names = new HashSet<>();
        for (ConfigKey key : BrokerConfig.brokerKeys()) {
            assertTrue(names.add(key.name()), "duplicate " + key.name());
            assertFalse(key.doc().isBlank(), key.name());
            assertTrue(key.name().matches("[a-z]+(\\.[a-z]+)*"), key.name());
            if (key.defaultValue() != null) {
                key.parse(key.defaultValue());
            } else {
                assertTrue(
                        key.doc().contains("unset"),
                        key.name() + " has no default so its doc must say what unset means");
            }
        }
        for (String required : List.of(
                "broker.id",
                "listeners",
                "advertised.listeners",
                "log.dirs",
                "log.dir",
                "num.partitions",
                "auto.create.topics.enable",
                "message.max.bytes",
                "socket.request.max.bytes",
                "log.segment.bytes",
                "log.retention.ms",
                "log.flush.interval.messages",
                "log.flush.interval.ms")) {
            assertTrue(names.contains(required), required);
        }
    }

    @Test
    void shouldShowEffectiveValuesAsText() {
        BrokerConfig config = BrokerConfig.fromMap(Map.of("log.dirs", "/a,/b"));
        assertEquals("/a,/b", config.valueText("log.dirs"));
        assertEquals("1", config.valueText("num.partitions"));
        assertEquals(null, config.valueText("log.roll.ms"));
        assertThrows(IllegalArgumentException.class, () -> config.valueText("no.such.key"));
    }

    private static void assertRefused(String key, String value, String reasonFragment) {
        ConfigException error = assertThrows(ConfigException.class, () -> BrokerConfig.fromMap(Map.of(key, value)));
        assertEquals(key, error.key());
        assertTrue(error.getMessage().contains("'" + key + "'"), error.getMessage());
        assertTrue(error.getMessage().contains(value.trim()), error.getMessage());
        assertTrue(error.getMessage().contains(reasonFragment), error.getMessage());
    }

    @Test
    void shouldChooseTheInterBrokerListenerByNameOrProtocolAmongTheAdvertisedOnes() {
        Map<String, String> two = Map.of(
                "listeners",
                "EXTERNAL://127.0.0.1:0,INTERNAL://127.0.0.1:0",
                "listener.security.protocol.map",
                "EXTERNAL:PLAINTEXT,INTERNAL:PLAINTEXT,SSL:SSL");
        assertEquals("EXTERNAL", BrokerConfig.fromMap(two).interBrokerListener().name(), "unset: the first advertised");
        Map<String, String> named = new java.util.HashMap<>(two);
        named.put("inter.broker.listener.name", "internal");
        assertEquals(
                "INTERNAL", BrokerConfig.fromMap(named).interBrokerListener().name());
        Map<String, String> byProtocol = Map.of(
                "listeners",
                "SSL://127.0.0.1:0,PLAINTEXT://127.0.0.1:0",
                "ssl.keystore.location",
                "/absent.p12",
                "security.inter.broker.protocol",
                "PLAINTEXT");
        assertEquals(
                "PLAINTEXT",
                BrokerConfig.fromMap(byProtocol).interBrokerListener().name(),
                "security.inter.broker.protocol names the listener of that name");
        Map<String, String> both = new java.util.HashMap<>(named);
        both.put("security.inter.broker.protocol", "PLAINTEXT");
        ConfigException twice = assertThrows(ConfigException.class, () -> BrokerConfig.fromMap(both));
        assertTrue(twice.getMessage().contains("Only one of"), twice.getMessage());
        Map<String, String> notAdvertised = new java.util.HashMap<>(named);
        notAdvertised.put("advertised.listeners", "EXTERNAL://broker-1:9092");
        assertEquals(
                "inter.broker.listener.name",
                assertThrows(ConfigException.class, () -> BrokerConfig.fromMap(notAdvertised))
                        .key());
    }

    @Test
    void shouldRefuseAnInterBrokerListenerThatIsNotAdvertised() {
        assertEquals(
                "PLAINTEXT",
                BrokerConfig.fromMap(Map.of("inter.broker.listener.name", "PLAINTEXT"))
                        .valueText("inter.broker.listener.name"));
        ConfigException error = assertThrows(
                ConfigException.class, () -> BrokerConfig.fromMap(Map.of("inter.broker.listener.name", "REPLICATION")));
        assertEquals("inter.broker.listener.name", error.key());
    }
}
