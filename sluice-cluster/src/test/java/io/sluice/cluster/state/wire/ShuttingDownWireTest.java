package io.sluice.cluster.state.wire;

import static io.sluice.cluster.state.wire.PartitionEpochWireTest.decode;
import static io.sluice.cluster.state.wire.PartitionEpochWireTest.encode;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.state.ClusterState;
import io.sluice.codec.error.CodecException;
import io.sluice.codec.message.Message;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The brokers in controlled shutdown as the cluster state carries them (DeltaRecord v5 shuttingDown, SnapshotRecord
 * v4 shuttingDownBrokers): round trips through any split, the mark ends when the broker leaves or registers again,
 * older deltas and snapshots (what is already stored) still read with no broker shutting down, and bad bytes end in a
 * typed error.
 */
class ShuttingDownWireTest {

    static ClusterState threeBrokers() {
        return ClusterState.of(
                2, 0, List.of(ZkTesting.broker(1, ""), ZkTesting.broker(2, ""), ZkTesting.broker(3, "")), List.of());
    }

    static DeltaRecord delta(long prevSeq) {
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = 2;
        d.prevSeq = prevSeq;
        return d;
    }

    static DeltaRecord shuttingDown(long prevSeq, int... ids) {
        DeltaRecord d = delta(prevSeq);
        d.shuttingDown = ids;
        return d;
    }

    @Test
    void shouldRoundTripTheBrokersInControlledShutdownThroughAnySplit() {
        for (int chunk : new int[] {1, 2, 3, 7, 64, 4096}) {
            DeltaRecord back = (DeltaRecord) decode(encode(shuttingDown(0, 3, 2), chunk), chunk);
            assertEquals(5, back.version());
            ClusterState applied = threeBrokers().apply(back, 1);
            assertArrayEquals(new int[] {2, 3}, applied.shuttingDownBrokers());
            assertTrue(applied.isShuttingDown(3) && applied.hasBroker(3), "still live, but shutting down");
            assertFalse(applied.isEligibleReplica(2));
            assertTrue(applied.isEligibleReplica(1));

            SnapshotRecord written = applied.toSnapshot();
            assertEquals(4, written.version(), "a snapshot with a broker shutting down is v4");
            ClusterState loaded = ClusterState.fromSnapshot((SnapshotRecord) decode(encode(written, chunk), chunk));
            assertArrayEquals(new int[] {2, 3}, loaded.shuttingDownBrokers(), "chunk " + chunk);
            assertTrue(loaded.sameContent(applied));
            assertFalse(loaded.sameContent(threeBrokers()), "the mark is content");
        }
    }

    @Test
    void shouldEndTheMarkWhenTheBrokerLeavesOrRegistersAgain() {
        ClusterState marked = threeBrokers().apply(shuttingDown(0, 2, 3), 1);
        DeltaRecord bounce = delta(1);
        bounce.joined.add(BrokerRecord.of(ZkTesting.broker(2, "")));
        ClusterState bounced = marked.apply(decodeDelta(bounce), 2);
        assertArrayEquals(new int[] {3}, bounced.shuttingDownBrokers(), "a new registration clears the mark");

        DeltaRecord leave = delta(2);
        leave.left = new int[] {3};
        ClusterState left = bounced.apply(decodeDelta(leave), 3);
        assertArrayEquals(new int[0], left.shuttingDownBrokers());
        DeltaRecord join = delta(3);
        join.joined.add(BrokerRecord.of(ZkTesting.broker(3, "")));
        assertFalse(left.apply(join, 4).isShuttingDown(3), "it joins as an eligible broker");

        ClusterState unchanged = marked.apply(decodeDelta(delta(1)), 2);
        assertArrayEquals(new int[] {2, 3}, unchanged.shuttingDownBrokers(), "a delta without brokers keeps it");
        assertArrayEquals(
                new int[] {2, 3},
                threeBrokers().apply(shuttingDown(0, 3, 9, 2, 3), 1).shuttingDownBrokers(),
                "ids not live are left out, duplicates once");
    }

    @Test
    void shouldWriteAndReadTheOlderVersionsWhenNoBrokerIsShuttingDown() {
        ClusterState base = threeBrokers();
        DeltaRecord scram = ScramWireTest.scramDelta(0, List.of(ScramWireTest.ALICE_256), List.of());
        for (DeltaRecord older : List.of(delta(0), ConfigWireTest.configDeltaWithoutTopic(0), scram)) {
            assertTrue(older.version() < 5, "no broker shutting down: readable by brokers that know only v4");
            DeltaRecord read = (DeltaRecord) decode(encode(older, 7), 3);
            assertEquals(older.version(), read.version());
            assertEquals(0, read.shuttingDown.length, "v" + older.version());
        }
        ClusterState withScram = base.apply(scram, 1);
        for (SnapshotRecord snap : List.of(base.toSnapshot(), withScram.toSnapshot())) {
            assertTrue(snap.version() < 4);
            SnapshotRecord read = (SnapshotRecord) decode(encode(snap, 5), 2);
            assertEquals(0, read.shuttingDownBrokers.length);
            assertEquals(0, ClusterState.fromSnapshot(read).shuttingDownBrokers().length);
        }
        ClusterState marked = base.apply(shuttingDown(0, 2), 1);
        assertTrue(
                marked.apply(ConfigWireTest.configDeltaWithoutTopic(1), 2).isShuttingDown(2),
                "an older delta leaves the mark as it is");
    }

    @Test
    void shouldRefuseANegativeBrokerIdWithATypedError() {
        DeltaRecord read = decodeDelta(shuttingDown(0, -4));
        assertThrows(CodecException.class, () -> threeBrokers().apply(read, 1));
        SnapshotRecord snap = threeBrokers().toSnapshot();
        snap.shuttingDownBrokers = new int[] {-1};
        SnapshotRecord readSnap = (SnapshotRecord) decode(encode(snap, 64), 64);
        assertThrows(CodecException.class, () -> ClusterState.fromSnapshot(readSnap));
    }

    @Test
    void shouldNotAllocateForAForgedLengthAndAskForMoreAtEveryTruncation() {
        List<Message> messages = List.of(
                shuttingDown(0, 1, 2, 3),
                threeBrokers().apply(shuttingDown(0, 2), 1).toSnapshot());
        for (Message m : messages) {
            WireChecks.forgeEveryLength(m, ShuttingDownWireTest::use);
        }
        WireChecks.assertEveryTruncationAsksForMore(messages);
    }

    @Property(tries = 300)
    void garbageInTheShuttingDownListsEndsInATypedError(
            @ForAll byte[] garbage, @ForAll @IntRange(min = 0, max = 120) int at, @ForAll boolean delta) {
        Message m = delta
                ? shuttingDown(0, 1, 3)
                : threeBrokers().apply(shuttingDown(0, 3), 1).toSnapshot();
        WireChecks.decodeSplicedGarbage(m, garbage, at, ShuttingDownWireTest::use);
    }

    private static DeltaRecord decodeDelta(DeltaRecord d) {
        return (DeltaRecord) decode(encode(d, 64), 64);
    }

    /** Uses a decoded message as a broker would: deltas applied, snapshots loaded. */
    private static void use(Message read) {
        if (read instanceof DeltaRecord d && d.controllerEpoch == 2 && d.prevSeq == 0) {
            threeBrokers().apply(d, 1);
        } else if (read instanceof SnapshotRecord s) {
            ClusterState.fromSnapshot(s);
        }
    }
}
