package io.sluice.cluster.state.wire;

import static io.sluice.cluster.state.wire.PartitionEpochWireTest.decode;
import static io.sluice.cluster.state.wire.PartitionEpochWireTest.encode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.codec.error.CodecException;
import io.sluice.codec.message.Message;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The records that carry dynamic configurations (ConfigRecord v0, DeltaRecord v1, SnapshotRecord v1): round trips
 * through any split of their bytes, v0 deltas and snapshots (an older controller's) still read, and truncated,
 * garbage or forged bytes end in a typed error or a request for more bytes, never a big allocation.
 */
class ConfigWireTest {
    static final UUID TOPIC = new UUID(3, 4);

    static TopicState topic(Map<String, String> configs) {
        return new TopicState(TOPIC, "configured", configs, new PartitionState[] {
            new PartitionState(new int[] {1, 2}, 1, 3, new int[] {1, 2}, 5)
        });
    }

    static DeltaRecord configDelta() {
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = 2;
        d.prevSeq = 0;
        d.configChanges.add(ConfigRecord.topic(TOPIC, Map.of("retention.ms", "1000", "segment.bytes", "4096")));
        d.configChanges.add(ConfigRecord.broker(2, Map.of("leader.replication.throttled.rate", "100")));
        d.configChanges.add(ConfigRecord.broker(ConfigRecord.CLUSTER_DEFAULT, Map.of("log.retention.ms", "7")));
        return d;
    }

    /** A delta that changes only a broker configuration (no topic needed), following {@code prevSeq}. */
    static DeltaRecord configDeltaWithoutTopic(long prevSeq) {
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = 2;
        d.prevSeq = prevSeq;
        d.configChanges.add(ConfigRecord.broker(1, Map.of("log.retention.ms", "9")));
        return d;
    }

    static ClusterState base() {
        return ClusterState.of(
                2,
                0,
                List.of(ZkTesting.broker(1, ""), ZkTesting.broker(2, "")),
                List.of(topic(Map.of("retention.ms", "5"))));
    }

    @Test
    void shouldRoundTripConfigChangesThroughAnySplit() {
        ClusterState expected = base().apply(configDelta(), 1);
        for (int chunk : new int[] {1, 2, 3, 7, 64, 4096}) {
            DeltaRecord back = (DeltaRecord) decode(encode(configDelta(), chunk), chunk);
            assertEquals(3, back.configChanges.size());
            ClusterState applied = base().apply(back, 1);
            assertEquals(
                    Map.of("retention.ms", "1000", "segment.bytes", "4096"),
                    applied.topic(TOPIC).configs());
            assertEquals(Map.of("leader.replication.throttled.rate", "100"), applied.brokerConfigs(2));
            assertEquals(Map.of("log.retention.ms", "7"), applied.brokerConfigs(ClusterState.CLUSTER_DEFAULT_BROKER));
            assertTrue(applied.sameContent(expected));

            SnapshotRecord snap = (SnapshotRecord) decode(encode(applied.toSnapshot(), chunk), chunk);
            assertTrue(ClusterState.fromSnapshot(snap).sameContent(expected), "chunk " + chunk);
        }
    }

    @Test
    void shouldRemoveABrokerConfigWithAnEmptySet() {
        ClusterState withConfigs = base().apply(configDelta(), 1);
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = 2;
        d.prevSeq = 1;
        d.configChanges.add(ConfigRecord.broker(2, Map.of()));
        ClusterState after = base().apply(configDelta(), 1).apply((DeltaRecord) decode(encode(d, 64), 64), 2);
        assertEquals(Map.of(), after.brokerConfigs(2));
        assertEquals(withConfigs.topic(TOPIC), after.topic(TOPIC), "topics untouched");
        assertEquals(1, after.allBrokerConfigs().size());
        assertEquals(1, after.toSnapshot().version(), "a snapshot with broker configs is v1");
    }

    @Test
    void shouldWriteAndReadVersion0WhenThereIsNoConfig() {
        DeltaRecord plain = new DeltaRecord();
        plain.controllerEpoch = 2;
        plain.partitionChanges.add(new PartitionChangeRecord(TOPIC, 0, 2, 4, new int[] {2}, 6));
        assertEquals(0, plain.version(), "no config change: readable by brokers that know only v0");
        DeltaRecord read = (DeltaRecord) decode(encode(plain, 7), 3);
        assertTrue(read.configChanges.isEmpty());
        assertEquals(2, base().apply(read, 1).topic(TOPIC).partition(0).leader());

        SnapshotRecord snap = base().toSnapshot();
        assertEquals(0, snap.version());
        SnapshotRecord snapRead = (SnapshotRecord) decode(encode(snap, 5), 2);
        assertTrue(snapRead.brokerConfigs.isEmpty());
        assertTrue(ClusterState.fromSnapshot(snapRead).sameContent(base()));

        byte[] v0 = encode(plain, 64);
        DeltaRecord withConfig = configDelta();
        withConfig.partitionChanges.addAll(plain.partitionChanges);
        assertTrue(encode(withConfig, 64).length > v0.length);
        assertEquals(1, withConfig.version());
    }

    @Test
    void shouldRefuseMalformedConfigRecordsWithTypedErrors() {
        ConfigRecord pairless = ConfigRecord.broker(1, Map.of("a", "1"));
        pairless.configValues = List.of();
        assertThrows(CodecException.class, ((ConfigRecord) decode(encode(pairless, 64), 64))::configs);

        ConfigRecord twice = ConfigRecord.broker(1, Map.of());
        twice.configKeys = List.of("a", "a");
        twice.configValues = List.of("1", "2");
        assertThrows(CodecException.class, ((ConfigRecord) decode(encode(twice, 64), 64))::configs);

        ConfigRecord badType = ConfigRecord.broker(1, Map.of());
        badType.entityType = 9;
        assertThrows(CodecException.class, ((ConfigRecord) decode(encode(badType, 64), 64))::configs);

        ConfigRecord noTopic = ConfigRecord.topic(new UUID(0, 0), Map.of());
        assertThrows(CodecException.class, ((ConfigRecord) decode(encode(noTopic, 64), 64))::configs);

        DeltaRecord unknownTopic = new DeltaRecord();
        unknownTopic.controllerEpoch = 2;
        unknownTopic.configChanges.add(ConfigRecord.topic(new UUID(8, 8), Map.of("retention.ms", "1")));
        DeltaRecord read = (DeltaRecord) decode(encode(unknownTopic, 64), 64);
        assertThrows(CodecException.class, () -> base().apply(read, 1));
    }

    @Test
    void shouldNotAllocateForAForgedListLength() {
        WireChecks.forgeEveryLength(ConfigRecord.broker(1, Map.of("a", "1")), read -> {
            if (read instanceof ConfigRecord c) {
                c.configs();
            }
        });
    }

    @Test
    void shouldAskForMoreBytesAtEveryTruncation() {
        WireChecks.assertEveryTruncationAsksForMore(List.of(
                ConfigRecord.broker(2, Map.of("x", "y")),
                configDelta(),
                base().apply(configDelta(), 1).toSnapshot()));
    }

    @Property(tries = 500)
    void garbageInConfigRecordsEndsInATypedError(
            @ForAll byte[] garbage, @ForAll @IntRange(min = 0, max = 80) int at, @ForAll boolean delta) {
        Message m = delta ? configDelta() : base().apply(configDelta(), 1).toSnapshot();
        WireChecks.decodeSplicedGarbage(m, garbage, at, read -> {
            if (read instanceof DeltaRecord d && d.controllerEpoch == 2 && d.prevSeq == 0) {
                base().apply(d, 1);
            } else if (read instanceof SnapshotRecord s) {
                ClusterState.fromSnapshot(s);
            }
        });
    }
}
