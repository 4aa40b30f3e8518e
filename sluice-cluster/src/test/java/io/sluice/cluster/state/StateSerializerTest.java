package io.sluice.cluster.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.PartitionChangeRecord;
import io.sluice.cluster.state.wire.SnapshotManifest;
import io.sluice.cluster.state.wire.SnapshotManifestDescriptor;
import io.sluice.cluster.state.wire.SnapshotRecord;
import io.sluice.cluster.state.wire.StateSerializer;
import io.sluice.cluster.state.wire.TopicRecord;
import io.sluice.codec.compress.Compression;
import io.sluice.codec.error.CodecException;
import io.sluice.codec.part.PartDescriptor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class StateSerializerTest {
    static final int PART_BYTES = 2048;

    static ClusterState sample(int topics, int partitions) {
        List<BrokerInfo> brokers = new ArrayList<>();
        for (int b = 0; b < 5; b++) {
            brokers.add(ZkTesting.broker(b, "rack-" + (b % 2)));
        }
        List<TopicState> ts = new ArrayList<>();
        Random random = new Random(topics * 31L + partitions);
        for (int t = 0; t < topics; t++) {
            PartitionState[] ps = new PartitionState[partitions];
            for (int p = 0; p < partitions; p++) {
                int[] replicas = {p % 5, (p + 1) % 5, (p + 2) % 5};
                ps[p] = new PartitionState(replicas, replicas[0], random.nextInt(100), replicas.clone());
            }
            ts.add(new TopicState(
                    new UUID(t, random.nextLong()),
                    "topic-" + t,
                    Map.of("retention.ms", Integer.toString(t), "cleanup.policy", "delete"),
                    ps));
        }
        return ClusterState.of(3, 42, brokers, ts);
    }

    static SnapshotManifest manifestOf(long id, ClusterState state, List<byte[]> parts) {
        ByteBuffer h = ByteBuffer.wrap(parts.get(0));
        return new SnapshotManifest(
                id,
                state.controllerEpoch(),
                state.appliedSeq(),
                parts.size(),
                h.getInt(PartDescriptor.TOTAL_LENGTH_OFFSET),
                h.getInt(PartDescriptor.STREAM_CRC_OFFSET),
                Compression.ZLIB);
    }

    @Test
    void shouldRoundTripSnapshotThroughPartsBelowTheLimit() {
        ClusterState state = sample(4, 500);
        try (StateSerializer s = new StateSerializer(Compression.ZLIB, PART_BYTES, 1000, 1 << 24)) {
            StateSerializer.EncodedSnapshot enc = s.encodeSnapshot(state.toSnapshot());
            assertTrue(
                    enc.parts().size() > 1, "split into parts: " + enc.parts().size());
            for (byte[] p : enc.parts()) {
                assertTrue(p.length <= PART_BYTES, "part of " + p.length);
            }
            List<byte[]> shuffled = new ArrayList<>(enc.parts());
            java.util.Collections.reverse(shuffled);
            SnapshotRecord back = s.decodeSnapshot(manifestOf(1, state, enc.parts()), shuffled);
            ClusterState read = ClusterState.fromSnapshot(back);
            assertTrue(read.sameContent(state));
            assertEquals(state.appliedSeq(), read.appliedSeq());
            assertEquals(state.controllerEpoch(), read.controllerEpoch());
        }
    }

    @Test
    void shouldRejectTruncatedFlippedMissingAndForeignPartsWithTypedError() {
        ClusterState state = sample(2, 800);
        ClusterState other = sample(2, 801);
        try (StateSerializer s = new StateSerializer(Compression.ZLIB, PART_BYTES, 1000, 1 << 24)) {
            List<byte[]> parts = s.encodeSnapshot(state.toSnapshot()).parts();
            List<byte[]> foreign = s.encodeSnapshot(other.toSnapshot()).parts();
            SnapshotManifest m = manifestOf(1, state, parts);

            List<byte[]> truncated = new ArrayList<>(parts);
            truncated.set(1, Arrays.copyOf(parts.get(1), parts.get(1).length / 2));
            assertThrows(CorruptStateException.class, () -> s.decodeSnapshot(m, truncated));

            List<byte[]> flipped = new ArrayList<>(parts);
            byte[] p = parts.get(0).clone();
            p[p.length - 1] ^= 0x40;
            flipped.set(0, p);
            assertThrows(CorruptStateException.class, () -> s.decodeSnapshot(m, flipped));

            assertThrows(CorruptStateException.class, () -> s.decodeSnapshot(m, parts.subList(0, parts.size() - 1)));

            List<byte[]> mixed = new ArrayList<>(parts);
            mixed.set(0, foreign.get(0));
            assertThrows(CorruptStateException.class, () -> s.decodeSnapshot(m, mixed));

            SnapshotManifest lying =
                    new SnapshotManifest(1, 3, 42, parts.size(), m.totalLength() + 1, m.streamCrc(), Compression.ZLIB);
            assertThrows(CorruptStateException.class, () -> s.decodeSnapshot(lying, parts));
            // The serializer still works after errors.
            assertTrue(ClusterState.fromSnapshot(s.decodeSnapshot(m, parts)).sameContent(state));
        }
    }

    @Test
    void shouldRoundTripDeltaAndRefuseOneLargerThanAPart() {
        try (StateSerializer s = new StateSerializer(Compression.ZLIB, PART_BYTES, 1000, 1 << 24)) {
            DeltaRecord d = new DeltaRecord();
            d.controllerEpoch = 5;
            d.prevSeq = 17;
            d.joined.add(BrokerRecord.of(ZkTesting.broker(9, "r1")));
            d.left = new int[] {4, 6};
            d.deletedTopics.add(new UUID(1, 2));
            d.partitionChanges.add(new PartitionChangeRecord(new UUID(3, 4), 7, 2, 11, new int[] {2, 3}));
            byte[] bytes = s.encodeDelta(d);
            DeltaRecord back = s.decodeDelta(18, bytes);
            assertEquals(5, back.controllerEpoch);
            assertEquals(17, back.prevSeq);
            assertEquals(ZkTesting.broker(9, "r1"), back.joined.get(0).toInfo());
            assertArrayEquals(new int[] {4, 6}, back.left);
            assertEquals(List.of(new UUID(1, 2)), back.deletedTopics);
            assertArrayEquals(new int[] {2, 3}, back.partitionChanges.get(0).isr);

            DeltaRecord huge = new DeltaRecord();
            huge.createdTopics.add(TopicRecord.of(sample(1, 5000).topic("topic-0")));
            assertNull(s.encodeDelta(huge), "a delta above the part size is published through a snapshot");
        }
    }

    @Test
    void shouldRejectCorruptManifestBytes() {
        byte[] good = SnapshotManifestDescriptor.encode(new SnapshotManifest(9, 2, 100, 3, 5000, 77, Compression.ZSTD));
        assertEquals(
                new SnapshotManifest(9, 2, 100, 3, 5000, 77, Compression.ZSTD),
                SnapshotManifestDescriptor.decode(good));
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 1;
            assertThrows(CodecException.class, () -> SnapshotManifestDescriptor.decode(bad), "bit flip at " + i);
        }
        for (int len = 0; len < good.length; len++) {
            byte[] cut = Arrays.copyOf(good, len);
            assertThrows(CodecException.class, () -> SnapshotManifestDescriptor.decode(cut));
        }
    }

    @Property(tries = 300)
    void garbageDeltaBytesEndInTypedError(@ForAll byte[] garbage, @ForAll @IntRange(min = 0, max = 40) int at) {
        try (StateSerializer s = new StateSerializer(Compression.ZLIB, PART_BYTES, 1000, 1 << 24)) {
            DeltaRecord d = new DeltaRecord();
            d.joined.add(BrokerRecord.of(ZkTesting.broker(1, "")));
            byte[] good = s.encodeDelta(d);
            byte[] spliced = good.clone();
            for (int i = 0; i < garbage.length && at + i < spliced.length; i++) {
                spliced[at + i] = garbage[i];
            }
            try {
                s.decodeDelta(1, spliced);
            } catch (CorruptStateException expected) {
                // typed
            }
            try {
                s.decodeDelta(1, garbage);
            } catch (CorruptStateException expected) {
                // typed
            }
        }
    }
}
