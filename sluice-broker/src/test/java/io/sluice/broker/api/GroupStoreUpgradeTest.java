package io.sluice.broker.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.group.store.GroupRecord;
import io.sluice.broker.group.store.LegacyGroupFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A single broker upgraded from the per-broker group files: its groups' committed offsets are served from
 * {@code __consumer_offsets} after the first start (imported once, the old directory renamed aside) and after
 * every later one.
 */
class GroupStoreUpgradeTest {
    private static final Map<String, String> SETTINGS = Map.of("offsets.topic.num.partitions", "5");

    @TempDir
    Path dir;

    @Test
    void shouldServeTheOldFilesOffsetsFromTheTopicAndMoveTheFilesAside() throws Exception {
        Path legacy = dir.resolve(SluiceBroker.METADATA_DIR).resolve(SluiceBroker.LEGACY_GROUP_STORE_DIR);
        LegacyGroupFiles.append(
                legacy,
                50,
                List.of(
                        new GroupRecord.OffsetCommit("old-group", "orders", 0, 42L, 3, "kept", 1000L, -1L),
                        new GroupRecord.OffsetCommit("old-group", "orders", 1, 7L, 3, "", 1000L, -1L)));
        LegacyGroupFiles.append(legacy, 50, List.of(new GroupRecord.OffsetTombstone("old-group", "orders", 1)));
        Map<TopicPartition, OffsetAndMetadata> expected =
                Map.of(new TopicPartition("orders", 0), new OffsetAndMetadata(42L, java.util.Optional.of(3), "kept"));

        try (InProcessBroker broker = new InProcessBroker(dir, SETTINGS);
                Admin admin = broker.admin()) {
            assertEquals(expected, committed(admin));
        }
        assertFalse(Files.exists(legacy));
        assertTrue(Files.isDirectory(legacy.resolveSibling(SluiceBroker.LEGACY_GROUP_STORE_DIR + ".migrated")));
        try (InProcessBroker broker = new InProcessBroker(dir, SETTINGS);
                Admin admin = broker.admin()) {
            assertEquals(expected, committed(admin), "served from __consumer_offsets after a restart");
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin) throws Exception {
        return admin.listConsumerGroupOffsets("old-group")
                .partitionsToOffsetAndMetadata()
                .get(60, TimeUnit.SECONDS);
    }
}
