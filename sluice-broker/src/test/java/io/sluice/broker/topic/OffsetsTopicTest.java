package io.sluice.broker.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.broker.group.store.LocalOffsetsPartitions;
import io.sluice.log.LogConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code __consumer_offsets}: how it is created and configured, and whose leadership changes reach the coordinator. */
class OffsetsTopicTest {
    private static final BrokerConfig DEFAULTS = BrokerConfig.fromMap(Map.of());

    @TempDir
    Path dir;

    @Test
    void shouldCapTheReplicationFactorToTheLiveBrokers() {
        assertEquals(1, OffsetsTopic.replicationFactor(3, 1), "the one-command single broker");
        assertEquals(2, OffsetsTopic.replicationFactor(3, 2));
        assertEquals(3, OffsetsTopic.replicationFactor(3, 5));
        assertEquals(1, OffsetsTopic.replicationFactor(3, 0), "never below one");
    }

    @Test
    void shouldAlwaysBeCompactedAndFsyncEachCommitUnlessCreatedOtherwise() {
        assertEquals(Map.of("cleanup.policy", "compact", "flush.messages", "1"), OffsetsTopic.configs(Map.of()));
        assertEquals(
                Map.of("cleanup.policy", "compact", "flush.messages", "100", "segment.bytes", "1048576"),
                OffsetsTopic.configs(
                        Map.of("cleanup.policy", "delete", "flush.messages", "100", "segment.bytes", "1048576")));
    }

    @Test
    void shouldDeleteByRetentionOnlyUnderTheDeletePolicy() {
        LogConfig compacted =
                TopicLogConfig.of(DEFAULTS, TopicConfigs.resolve(DEFAULTS, OffsetsTopic.configs(Map.of())));
        assertEquals(-1, compacted.retentionMs(), "the log cleaner, not retention, shrinks a compacted topic");
        assertEquals(-1, compacted.retentionBytes());
        LogConfig both = TopicLogConfig.of(
                DEFAULTS,
                TopicConfigs.resolve(DEFAULTS, Map.of("cleanup.policy", "compact,delete", "retention.ms", "1000")));
        assertEquals(1000, both.retentionMs());
    }

    @Test
    void shouldTellTheCoordinatorOfItsLeadershipsOnly() throws IOException {
        List<String> told = new ArrayList<>();
        BiConsumer<Partition, Partition.Transition> listener = OffsetsTopic.roleListener(
                (partition, epoch) -> told.add("leader " + partition + " epoch " + epoch),
                partition -> told.add("resigned " + partition));
        try (LocalOffsetsPartitions offsets = new LocalOffsetsPartitions(dir, 2, System::currentTimeMillis)) {
            Partition p1 = offsets.get(1);
            listener.accept(p1, Partition.Transition.BECAME_LEADER);
            listener.accept(p1, Partition.Transition.ISR_CHANGED);
            listener.accept(p1, Partition.Transition.BECAME_FOLLOWER);
            listener.accept(p1, Partition.Transition.OFFLINE);
            listener.accept(p1, Partition.Transition.REMOVED);
            assertEquals(List.of("leader 1 epoch " + p1.leaderEpoch(), "resigned 1", "resigned 1", "resigned 1"), told);
        }
    }
}
