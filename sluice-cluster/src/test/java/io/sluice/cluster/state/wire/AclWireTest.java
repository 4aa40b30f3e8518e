package io.sluice.cluster.state.wire;

import static io.sluice.cluster.state.wire.PartitionEpochWireTest.decode;
import static io.sluice.cluster.state.wire.PartitionEpochWireTest.encode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.state.AclEntry;
import io.sluice.cluster.state.ClusterState;
import io.sluice.codec.error.CodecException;
import io.sluice.codec.message.Message;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The records that carry access control entries (AclRecord v0, DeltaRecord v3, SnapshotRecord v2): round trips
 * through any split of their bytes, older deltas and snapshots still read, and truncated, garbage or forged bytes end
 * in a typed error or a request for more bytes, never a big allocation.
 */
class AclWireTest {
    static final AclEntry READ_ORDERS =
            new AclEntry(AclEntry.TOPIC, "orders", AclEntry.LITERAL, "User:alice", "*", (byte) 3, AclEntry.ALLOW);
    static final AclEntry DENY_PAY =
            new AclEntry(AclEntry.TOPIC, "pay-", AclEntry.PREFIXED, "User:*", "10.0.0.1", (byte) 4, AclEntry.DENY);
    static final AclEntry CLUSTER_ALL = new AclEntry(
            AclEntry.CLUSTER, "kafka-cluster", AclEntry.LITERAL, "User:bob", "*", (byte) 2, AclEntry.ALLOW);

    static DeltaRecord aclDelta(long prevSeq, List<AclEntry> add, List<AclEntry> remove) {
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = 2;
        d.prevSeq = prevSeq;
        add.forEach(e -> d.addedAcls.add(AclRecord.of(e)));
        remove.forEach(e -> d.removedAcls.add(AclRecord.of(e)));
        return d;
    }

    static ClusterState base() {
        return ClusterState.of(2, 0, List.of(ZkTesting.broker(1, "")), List.of());
    }

    @Test
    void shouldRoundTripAclChangesThroughAnySplit() {
        for (int chunk : new int[] {1, 2, 3, 7, 64, 4096}) {
            DeltaRecord back = (DeltaRecord) decode(
                    encode(aclDelta(0, List.of(READ_ORDERS, DENY_PAY, CLUSTER_ALL), List.of()), chunk), chunk);
            assertEquals(3, back.version());
            ClusterState applied = base().apply(back, 1);
            assertEquals(Set.of(READ_ORDERS, DENY_PAY, CLUSTER_ALL), applied.acls());

            SnapshotRecord written = applied.toSnapshot();
            assertEquals(2, written.version(), "a snapshot with ACLs is v2");
            SnapshotRecord snap = (SnapshotRecord) decode(encode(written, chunk), chunk);
            ClusterState loaded = ClusterState.fromSnapshot(snap);
            assertEquals(applied.acls(), loaded.acls());
            assertTrue(loaded.sameContent(applied), "chunk " + chunk);
        }
    }

    @Test
    void shouldRemoveBeforeAddingAndIgnoreWhatIsAbsent() {
        ClusterState two = base().apply(aclDelta(0, List.of(READ_ORDERS, DENY_PAY), List.of()), 1);
        ClusterState after = two.apply(
                (DeltaRecord) decode(encode(aclDelta(1, List.of(CLUSTER_ALL), List.of(DENY_PAY, CLUSTER_ALL)), 64), 64),
                2);
        assertEquals(Set.of(READ_ORDERS, CLUSTER_ALL), after.acls());
        ClusterState untouched = after.apply(ConfigWireTest.configDeltaWithoutTopic(2), 3);
        assertSame(after.acls(), untouched.acls(), "a delta without ACL changes shares the set");
    }

    @Test
    void shouldWriteOlderVersionsWhenThereIsNoAcl() {
        DeltaRecord noAcl = ConfigWireTest.configDeltaWithoutTopic(0);
        assertEquals(1, noAcl.version(), "no ACL change: readable by brokers that know only v1");
        DeltaRecord read = (DeltaRecord) decode(encode(noAcl, 7), 3);
        assertTrue(read.addedAcls.isEmpty() && read.removedAcls.isEmpty());
        SnapshotRecord snap = base().toSnapshot();
        assertEquals(0, snap.version());
        SnapshotRecord snapRead = (SnapshotRecord) decode(encode(snap, 5), 2);
        assertTrue(snapRead.acls.isEmpty());
        assertTrue(ClusterState.fromSnapshot(snapRead).acls().isEmpty());
    }

    @Test
    void shouldRefuseMalformedAclRecordsWithTypedErrors() {
        for (int field = 0; field < 7; field++) {
            AclRecord r = AclRecord.of(READ_ORDERS);
            switch (field) {
                case 0 -> r.resourceType = 1;
                case 1 -> r.resourceName = "";
                case 2 -> r.patternType = 2;
                case 3 -> r.principal = null;
                case 4 -> r.host = "";
                case 5 -> r.operation = 1;
                default -> r.permissionType = 1;
            }
            AclRecord read = (AclRecord) decode(encode(r, 64), 64);
            assertThrows(CodecException.class, read::toEntry, "field " + field);
            DeltaRecord d = new DeltaRecord();
            d.controllerEpoch = 2;
            d.addedAcls.add(read);
            DeltaRecord readDelta = (DeltaRecord) decode(encode(d, 64), 64);
            assertThrows(CodecException.class, () -> base().apply(readDelta, 1), "field " + field);
        }
        DeltaRecord wrongType = new DeltaRecord();
        wrongType.controllerEpoch = 2;
        wrongType.addedAcls = (List) List.of(ConfigRecord.broker(1, Map.of()));
        DeltaRecord readWrong = (DeltaRecord) decode(encode(wrongType, 64), 64);
        assertThrows(CodecException.class, () -> base().apply(readWrong, 1));
    }

    @Test
    void shouldNotAllocateForAForgedLength() {
        for (Message m : List.of(AclRecord.of(DENY_PAY), aclDelta(0, List.of(DENY_PAY), List.of(READ_ORDERS)))) {
            WireChecks.forgeEveryLength(m, AclWireTest::use);
        }
    }

    @Test
    void shouldAskForMoreBytesAtEveryTruncation() {
        WireChecks.assertEveryTruncationAsksForMore(List.of(
                AclRecord.of(READ_ORDERS),
                aclDelta(0, List.of(READ_ORDERS), List.of(DENY_PAY)),
                base().apply(aclDelta(0, List.of(CLUSTER_ALL), List.of()), 1).toSnapshot()));
    }

    @Property(tries = 500)
    void garbageInAclRecordsEndsInATypedError(
            @ForAll byte[] garbage, @ForAll @IntRange(min = 0, max = 80) int at, @ForAll boolean delta) {
        Message m = delta
                ? aclDelta(0, List.of(READ_ORDERS, DENY_PAY), List.of(CLUSTER_ALL))
                : base().apply(aclDelta(0, List.of(READ_ORDERS), List.of()), 1).toSnapshot();
        WireChecks.decodeSplicedGarbage(m, garbage, at, AclWireTest::use);
    }

    /** Uses a decoded message as a broker would: entries checked, deltas applied, snapshots loaded. */
    private static void use(Message read) {
        if (read instanceof AclRecord a) {
            a.toEntry();
        } else if (read instanceof DeltaRecord d && d.controllerEpoch == 2 && d.prevSeq == 0) {
            base().apply(d, 1);
        } else if (read instanceof SnapshotRecord s) {
            ClusterState.fromSnapshot(s);
        }
    }
}
