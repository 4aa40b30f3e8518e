package io.sluice.cluster.state.wire;

import static io.sluice.cluster.state.wire.PartitionEpochWireTest.decode;
import static io.sluice.cluster.state.wire.PartitionEpochWireTest.encode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.codec.error.CodecException;
import io.sluice.codec.message.Message;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * DeltaRecord v2 (addedPartitions, CreatePartitions): round trips through any split of its bytes, older deltas (v0,
 * v1) still read with nothing added, a delta is v2 only when it adds partitions, a malformed addition (wrong number,
 * unknown topic, no replica set) is refused with a typed error, and truncated, garbage or forged bytes end in a typed
 * error or a request for more bytes, never a big allocation.
 */
class AddedPartitionsWireTest {
    static final UUID TOPIC = new UUID(5, 6);

    static ClusterState base() {
        TopicState topic = new TopicState(TOPIC, "growing", Map.of(), new PartitionState[] {
            new PartitionState(new int[] {1, 2}, 1, 3, new int[] {1, 2}, 5)
        });
        return ClusterState.of(2, 0, List.of(ZkTesting.broker(1, ""), ZkTesting.broker(2, "")), List.of(topic));
    }

    static PartitionChangeRecord added(int partition, int... replicas) {
        return PartitionChangeRecord.of(
                TOPIC, partition, new PartitionState(replicas, replicas[0], 0, replicas.clone(), 0));
    }

    static DeltaRecord growDelta() {
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = 2;
        d.prevSeq = 0;
        d.addedPartitions.add(added(1, 2, 1));
        d.addedPartitions.add(added(2, 1, 2));
        return d;
    }

    @Test
    void shouldRoundTripAddedPartitionsThroughAnySplit() {
        for (int chunk : new int[] {1, 2, 3, 7, 64, 4096}) {
            DeltaRecord back = (DeltaRecord) decode(encode(growDelta(), chunk), chunk);
            assertEquals(2, back.addedPartitions.size());
            TopicState grown = base().apply(back, 1).topic(TOPIC);
            assertEquals(3, grown.partitionCount());
            assertEquals(base().topic(TOPIC).partition(0), grown.partition(0), "existing partitions untouched");
            assertEquals(new PartitionState(new int[] {2, 1}, 2, 0, new int[] {2, 1}, 0), grown.partition(1));
            assertEquals(new PartitionState(new int[] {1, 2}, 1, 0, new int[] {1, 2}, 0), grown.partition(2));

            SnapshotRecord snap =
                    (SnapshotRecord) decode(encode(base().apply(back, 1).toSnapshot(), chunk), chunk);
            assertEquals(grown, ClusterState.fromSnapshot(snap).topic(TOPIC), "chunk " + chunk);
        }
    }

    @Test
    void shouldWriteVersion2OnlyWhenPartitionsAreAdded() {
        assertEquals(2, growDelta().version());
        DeltaRecord config = new DeltaRecord();
        config.controllerEpoch = 2;
        config.configChanges.add(ConfigRecord.broker(1, Map.of("a", "b")));
        assertEquals(1, config.version(), "a config delta stays readable by brokers that know v1");
        DeltaRecord configRead = (DeltaRecord) decode(encode(config, 7), 3);
        assertTrue(configRead.addedPartitions.isEmpty());
        assertEquals(1, configRead.configChanges.size());

        DeltaRecord plain = new DeltaRecord();
        plain.partitionChanges.add(new PartitionChangeRecord(TOPIC, 0, 2, 4, new int[] {2}, 6));
        assertEquals(0, plain.version());
        assertTrue(((DeltaRecord) decode(encode(plain, 5), 2)).addedPartitions.isEmpty());

        DeltaRecord both = growDelta();
        both.configChanges.add(ConfigRecord.topic(TOPIC, Map.of("retention.ms", "9")));
        DeltaRecord bothRead = (DeltaRecord) decode(encode(both, 11), 4);
        ClusterState applied = base().apply(bothRead, 1);
        assertEquals(3, applied.topic(TOPIC).partitionCount());
        assertEquals(Map.of("retention.ms", "9"), applied.topic(TOPIC).configs());
    }

    @Test
    void shouldApplyAChangeOfAPartitionAddedInTheSameDelta() {
        DeltaRecord d = growDelta();
        d.partitionChanges.add(new PartitionChangeRecord(TOPIC, 2, 2, 1, new int[] {2}, 1));
        PartitionState p2 = base().apply((DeltaRecord) decode(encode(d, 64), 64), 1)
                .topic(TOPIC)
                .partition(2);
        assertEquals(2, p2.leader());
        assertEquals(1, p2.partitionEpoch());
    }

    @Test
    void shouldRefuseMalformedAdditionsWithTypedErrors() {
        DeltaRecord gap = new DeltaRecord();
        gap.controllerEpoch = 2;
        gap.addedPartitions.add(added(2, 1, 2));
        assertThrows(CodecException.class, () -> base().apply((DeltaRecord) decode(encode(gap, 64), 64), 1));

        DeltaRecord existing = new DeltaRecord();
        existing.controllerEpoch = 2;
        existing.addedPartitions.add(added(0, 1, 2));
        assertThrows(CodecException.class, () -> base().apply((DeltaRecord) decode(encode(existing, 64), 64), 1));

        DeltaRecord unknown = new DeltaRecord();
        unknown.controllerEpoch = 2;
        PartitionChangeRecord elsewhere = added(1, 1);
        elsewhere.topicId = new UUID(9, 9);
        unknown.addedPartitions.add(elsewhere);
        assertThrows(CodecException.class, () -> base().apply((DeltaRecord) decode(encode(unknown, 64), 64), 1));

        DeltaRecord noReplicas = new DeltaRecord();
        noReplicas.controllerEpoch = 2;
        PartitionChangeRecord v1 = added(1, 1);
        v1.writeVersion = 1;
        noReplicas.addedPartitions.add(v1);
        assertThrows(CodecException.class, () -> base().apply((DeltaRecord) decode(encode(noReplicas, 64), 64), 1));

        DeltaRecord empty = new DeltaRecord();
        empty.controllerEpoch = 2;
        PartitionChangeRecord none = added(1, 1);
        none.replicas = new int[0];
        empty.addedPartitions.add(none);
        assertThrows(CodecException.class, () -> base().apply((DeltaRecord) decode(encode(empty, 64), 64), 1));

        DeltaRecord nulled = growDelta();
        nulled.addedPartitions = null;
        assertThrows(CodecException.class, () -> base().apply(nulled, 1));
    }

    @Test
    void shouldLeaveTheStateSharedWhenADeltaAddsNothing() {
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = 2;
        d.configChanges.add(ConfigRecord.broker(1, Map.of("a", "b")));
        ClusterState before = base();
        assertSame(before.topic(TOPIC), before.apply(d, 1).topic(TOPIC));
    }

    @Test
    void shouldNotAllocateForAForgedLength() {
        byte[] bytes = encode(growDelta(), 64);
        for (int at = 0; at + 4 <= bytes.length; at++) {
            byte[] forged = bytes.clone();
            ByteBuffer.wrap(forged, at, 4).order(ByteOrder.BIG_ENDIAN).putInt(0x7fff_fff0);
            try {
                Message m = decode(forged, 64);
                if (m instanceof DeltaRecord d && d.controllerEpoch == 2 && d.prevSeq == 0) {
                    base().apply(d, 1);
                }
            } catch (CodecException typed) {
                // typed
            }
        }
    }

    @Test
    void shouldAskForMoreBytesAtEveryTruncation() {
        byte[] bytes = encode(growDelta(), 64);
        for (int len = 0; len < bytes.length; len++) {
            try {
                assertNull(decode(Arrays.copyOf(bytes, len), 3), "truncated at " + len);
            } catch (CodecException typed) {
                // a cut inside a length can also read as malformed; typed either way
            }
        }
    }

    @Property(tries = 500)
    void garbageInAddedPartitionsEndsInATypedError(
            @ForAll byte[] garbage, @ForAll @IntRange(min = 0, max = 120) int at) {
        byte[] spliced = encode(growDelta(), 64);
        for (int i = 0; i < garbage.length && at + i < spliced.length; i++) {
            spliced[at + i] = garbage[i];
        }
        for (byte[] bytes : List.of(spliced, garbage)) {
            try {
                Message read = decode(bytes, 5);
                if (read instanceof DeltaRecord d && d.controllerEpoch == 2 && d.prevSeq == 0) {
                    base().apply(d, 1);
                }
            } catch (CodecException typed) {
                // typed
            }
        }
    }
}
