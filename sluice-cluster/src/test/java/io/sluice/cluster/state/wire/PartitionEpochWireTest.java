package io.sluice.cluster.state.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.codec.compress.GrowableBytes;
import io.sluice.codec.error.CodecException;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The records that carry partition epochs (PartitionChangeRecord v1, TopicRecord v1): round trips through any
 * split of their bytes, v0 bytes (an older controller's) still read, and truncated or garbage bytes end in a typed
 * error or a request for more bytes, never anything else.
 */
class PartitionEpochWireTest {
    static final UUID TOPIC = new UUID(7, 9);

    static TopicState topic() {
        return new TopicState(TOPIC, "epochs", Map.of("retention.ms", "5"), new PartitionState[] {
            new PartitionState(new int[] {1, 2, 3}, 2, 4, new int[] {2, 3}, 17),
            new PartitionState(new int[] {3, 1}, PartitionState.NO_LEADER, 9, new int[] {3}, 40)
        });
    }

    static byte[] encode(Message m, int chunk) {
        GrowableBytes out = new GrowableBytes("test", chunk, 1 << 20);
        try (MessageWriter w = new MessageWriter()) {
            ByteBuffer b = ByteBuffer.allocate(chunk);
            boolean done;
            do {
                b.clear();
                w.setBuffer(b);
                done = w.write(m);
                b.flip();
                out.write(b);
            } while (!done);
        }
        return out.toByteArray();
    }

    /** Decodes {@code bytes} handed over {@code step} bytes at a time; null when they end before the message. */
    static Message decode(byte[] bytes, int step) {
        try (MessageReader r = new MessageReader(StateMessages.REGISTRY)) {
            for (int from = 0; from < bytes.length; from += step) {
                r.setBuffer(ByteBuffer.wrap(bytes, from, Math.min(step, bytes.length - from)));
                Message m = r.read();
                if (m != null) {
                    return m;
                }
            }
            return null;
        }
    }

    @Test
    void shouldRoundTripPartitionEpochsThroughAnySplit() {
        PartitionChangeRecord c = new PartitionChangeRecord(TOPIC, 1, 3, 10, new int[] {3, 1}, 41);
        TopicRecord t = TopicRecord.of(topic());
        for (int chunk : new int[] {1, 2, 3, 7, 64, 4096}) {
            PartitionChangeRecord back = (PartitionChangeRecord) decode(encode(c, chunk), chunk);
            assertEquals(41, back.partitionEpoch);
            assertArrayEquals(new int[] {3, 1}, back.isr);
            TopicRecord topicBack = (TopicRecord) decode(encode(t, chunk), chunk);
            assertEquals(topic(), topicBack.toTopic(), "chunk " + chunk);
            assertArrayEquals(encode(t, 64), encode(topicBack, chunk), "a record read is written back the same");
        }
    }

    @Test
    void shouldReadVersion0RecordsWrittenBeforePartitionEpochs() {
        PartitionChangeRecord v0 = new PartitionChangeRecord(TOPIC, 0, 1, 5, new int[] {1});
        v0.writeVersion = 0;
        byte[] v0Bytes = encode(v0, 64);
        PartitionChangeRecord v1 = new PartitionChangeRecord(TOPIC, 0, 1, 5, new int[] {1}, 3);
        v1.writeVersion = 1;
        byte[] v1Bytes = encode(v1, 64);
        assertEquals(v1Bytes.length - 1, v0Bytes.length, "v0 has no partitionEpoch field");
        PartitionChangeRecord read = (PartitionChangeRecord) decode(v0Bytes, 1);
        assertEquals(PartitionChangeRecord.PARTITION_EPOCH_NOT_CARRIED, read.partitionEpoch);

        TopicRecord topicV0 = (TopicRecord) decode(encode(TopicRecord.of(topic(), 0), 5), 3);
        TopicState t = topicV0.toTopic();
        assertEquals(0, t.partition(0).partitionEpoch());
        assertEquals(4, t.partition(0).leaderEpoch());
        assertArrayEquals(new int[] {3}, t.partition(1).isr());

        // A v0 change applied to a state still counts as a change of the partition.
        ClusterState s = ClusterState.of(1, 0, List.of(ZkTesting.broker(1, "")), List.of(t));
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = 1;
        d.prevSeq = 0;
        d.partitionChanges.add(read);
        assertEquals(1, s.apply(d, 1).topic(TOPIC).partition(0).partitionEpoch());
    }

    static TopicState moving() {
        return new TopicState(TOPIC, "moving", Map.of(), new PartitionState[] {
            new PartitionState(new int[] {4, 2, 3, 1}, 1, 6, new int[] {1, 2, 3}, 12, new int[] {4}, new int[] {1}),
            new PartitionState(new int[] {3, 1}, 3, 2, new int[] {3, 1}, 5)
        });
    }

    @Test
    void shouldRoundTripReassignmentsThroughAnySplit() {
        PartitionChangeRecord c = PartitionChangeRecord.of(TOPIC, 0, moving().partition(0));
        TopicRecord t = TopicRecord.of(moving());
        for (int chunk : new int[] {1, 2, 3, 7, 64, 4096}) {
            PartitionChangeRecord back = (PartitionChangeRecord) decode(encode(c, chunk), chunk);
            assertArrayEquals(new int[] {4, 2, 3, 1}, back.replicas);
            assertArrayEquals(new int[] {4}, back.addingReplicas);
            assertArrayEquals(new int[] {1}, back.removingReplicas);
            assertEquals(moving(), ((TopicRecord) decode(encode(t, chunk), chunk)).toTopic(), "chunk " + chunk);
        }
        // Applied to a state, the change moves the replica set; a v1 change keeps it.
        TopicState before = new TopicState(TOPIC, "moving", Map.of(), new PartitionState[] {
            new PartitionState(new int[] {1, 2, 3}, 1, 5, new int[] {1, 2, 3}, 11), moving().partition(1)
        });
        ClusterState s = ClusterState.of(1, 0, List.of(ZkTesting.broker(1, "")), List.of(before));
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = 1;
        d.partitionChanges.add((PartitionChangeRecord) decode(encode(c, 64), 64));
        assertEquals(moving().partition(0), s.apply(d, 1).topic(TOPIC).partition(0));

        PartitionChangeRecord v1 = PartitionChangeRecord.of(TOPIC, 0, moving().partition(0));
        v1.writeVersion = 1;
        PartitionChangeRecord v1Read = (PartitionChangeRecord) decode(encode(v1, 64), 64);
        assertNull(v1Read.replicas, "a v1 change does not carry the replica set");
        DeltaRecord d1 = new DeltaRecord();
        d1.controllerEpoch = 1;
        d1.partitionChanges.add(v1Read);
        assertArrayEquals(
                new int[] {1, 2, 3}, s.apply(d1, 1).topic(TOPIC).partition(0).replicas());

        TopicRecord v1Topic = (TopicRecord) decode(encode(TopicRecord.of(moving(), 1), 5), 3);
        assertEquals(0, v1Topic.toTopic().partition(0).addingReplicas().length, "v1 topics read as not moving");
    }

    @Test
    void shouldRefuseAChangeToAnEmptyReplicaSet() {
        PartitionChangeRecord c = PartitionChangeRecord.of(TOPIC, 0, moving().partition(0));
        c.replicas = new int[0];
        ClusterState s = ClusterState.of(1, 0, List.of(ZkTesting.broker(1, "")), List.of(moving()));
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = 1;
        d.partitionChanges.add((PartitionChangeRecord) decode(encode(c, 64), 64));
        org.junit.jupiter.api.Assertions.assertThrows(CodecException.class, () -> s.apply(d, 1));
    }

    @Test
    void shouldAskForMoreBytesAtEveryTruncation() {
        for (Message m : List.of(
                new PartitionChangeRecord(TOPIC, 1, 3, 10, new int[] {3, 1}, 41),
                TopicRecord.of(topic()),
                TopicRecord.of(moving()),
                PartitionChangeRecord.of(TOPIC, 0, moving().partition(0)))) {
            byte[] bytes = encode(m, 64);
            for (int len = 0; len < bytes.length; len++) {
                byte[] cut = Arrays.copyOf(bytes, len);
                try {
                    assertNull(decode(cut, 3), "truncated at " + len);
                } catch (CodecException typed) {
                    // a cut inside a length can also read as malformed; typed either way
                }
            }
        }
    }

    @Property(tries = 500)
    void garbageInThePartitionEpochRecordsEndsInATypedError(
            @ForAll byte[] garbage, @ForAll @IntRange(min = 0, max = 60) int at, @ForAll boolean topicRecord) {
        Message m = topicRecord ? TopicRecord.of(moving()) : PartitionChangeRecord.of(TOPIC, 0, moving().partition(0));
        WireChecks.decodeSplicedGarbage(m, garbage, at, read -> {
            if (read instanceof TopicRecord t) {
                t.toTopic();
            }
        });
    }
}
