package io.sluice.cluster.state.wire;

import static io.sluice.cluster.state.wire.PartitionEpochWireTest.decode;
import static io.sluice.cluster.state.wire.PartitionEpochWireTest.encode;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.ScramCredentialEntry;
import io.sluice.codec.error.CodecException;
import io.sluice.codec.message.Message;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The records that carry SCRAM credentials (ScramRecord v0, DeltaRecord v4, SnapshotRecord v3): round trips through
 * any split of their bytes, older deltas and snapshots (v0..v3, v0..v2) still read with no credential, and truncated,
 * garbage or forged bytes end in a typed error or a request for more bytes, never a big allocation.
 */
class ScramWireTest {
    static final ScramCredentialEntry ALICE_256 = entry("alice", ScramCredentialEntry.SCRAM_SHA_256, 8192, 1);
    static final ScramCredentialEntry ALICE_512 = entry("alice", ScramCredentialEntry.SCRAM_SHA_512, 4096, 2);
    static final ScramCredentialEntry BOB_256 = entry("bob", ScramCredentialEntry.SCRAM_SHA_256, 4096, 3);

    static ScramCredentialEntry entry(String user, byte mechanism, int iterations, int seed) {
        int keyLength = mechanism == ScramCredentialEntry.SCRAM_SHA_256 ? 32 : 64;
        return new ScramCredentialEntry(
                new ScramCredentialEntry.Key(user, mechanism),
                filled(32, seed),
                filled(keyLength, seed + 10),
                filled(keyLength, seed + 20),
                iterations);
    }

    private static byte[] filled(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return b;
    }

    static DeltaRecord scramDelta(long prevSeq, List<ScramCredentialEntry> set, List<ScramCredentialEntry> delete) {
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = 2;
        d.prevSeq = prevSeq;
        set.forEach(e -> d.setScram.add(ScramRecord.of(e)));
        delete.forEach(e -> d.deletedScram.add(ScramRecord.deletion(e.key())));
        return d;
    }

    static ClusterState base() {
        return ClusterState.of(2, 0, List.of(ZkTesting.broker(1, "")), List.of());
    }

    @Test
    void shouldRoundTripCredentialsThroughAnySplit() {
        for (int chunk : new int[] {1, 2, 3, 7, 64, 4096}) {
            DeltaRecord back = (DeltaRecord) decode(
                    encode(scramDelta(0, List.of(ALICE_256, ALICE_512, BOB_256), List.of()), chunk), chunk);
            assertEquals(4, back.version());
            ClusterState applied = base().apply(back, 1);
            assertEquals(
                    List.of(ALICE_256, ALICE_512, BOB_256),
                    List.copyOf(applied.scramCredentials().all()));
            ScramCredentialEntry read = applied.scramCredentials().get("alice", ScramCredentialEntry.SCRAM_SHA_512);
            assertArrayEquals(ALICE_512.storedKey(), read.storedKey());
            assertArrayEquals(ALICE_512.serverKey(), read.serverKey());
            assertArrayEquals(ALICE_512.salt(), read.salt());
            assertEquals(4096, read.iterations());

            SnapshotRecord written = applied.toSnapshot();
            assertEquals(3, written.version(), "a snapshot with SCRAM credentials is v3");
            ClusterState loaded = ClusterState.fromSnapshot((SnapshotRecord) decode(encode(written, chunk), chunk));
            assertEquals(applied.scramCredentials(), loaded.scramCredentials());
            assertTrue(loaded.sameContent(applied), "chunk " + chunk);
        }
    }

    @Test
    void shouldDeleteBeforeSettingReplaceByKeyAndIgnoreWhatIsAbsent() {
        ClusterState two = base().apply(scramDelta(0, List.of(ALICE_256, BOB_256), List.of()), 1);
        ScramCredentialEntry alice256Again = entry("alice", ScramCredentialEntry.SCRAM_SHA_256, 16384, 9);
        ClusterState after = two.apply(
                (DeltaRecord) decode(
                        encode(scramDelta(1, List.of(alice256Again, ALICE_512), List.of(BOB_256, ALICE_512)), 64), 64),
                2);
        assertEquals(
                List.of(alice256Again, ALICE_512),
                List.copyOf(after.scramCredentials().all()));
        assertNull(after.scramCredentials().get("bob", ScramCredentialEntry.SCRAM_SHA_256));
        assertNull(after.scramCredentials().get("alice", (byte) 7), "an unknown mechanism finds nothing");
        ClusterState untouched = after.apply(ConfigWireTest.configDeltaWithoutTopic(2), 3);
        assertSame(after.scramCredentials(), untouched.scramCredentials(), "a delta without SCRAM changes shares them");
    }

    @Test
    void shouldWriteAndReadOlderVersionsWhenThereIsNoCredential() {
        DeltaRecord aclOnly = AclWireTest.aclDelta(0, List.of(AclWireTest.READ_ORDERS), List.of());
        assertEquals(3, aclOnly.version(), "no SCRAM change: readable by brokers that know only v3");
        for (DeltaRecord older : List.of(new DeltaRecord(), ConfigWireTest.configDeltaWithoutTopic(0), aclOnly)) {
            DeltaRecord read = (DeltaRecord) decode(encode(older, 7), 3);
            assertEquals(older.version(), read.version());
            assertTrue(read.setScram.isEmpty() && read.deletedScram.isEmpty(), "v" + older.version());
        }
        ClusterState withAcl = base().apply(aclOnly, 1);
        for (SnapshotRecord snap : List.of(base().toSnapshot(), withAcl.toSnapshot())) {
            assertTrue(snap.version() < 3);
            SnapshotRecord read = (SnapshotRecord) decode(encode(snap, 5), 2);
            assertTrue(read.scramCredentials.isEmpty());
            assertTrue(ClusterState.fromSnapshot(read).scramCredentials().isEmpty());
        }
    }

    @Test
    void shouldRefuseMalformedCredentialsWithTypedErrors() {
        for (int field = 0; field < 7; field++) {
            ScramRecord r = ScramRecord.of(ALICE_256);
            switch (field) {
                case 0 -> r.user = "";
                case 1 -> r.mechanism = 0;
                case 2 -> r.salt = new byte[0];
                case 3 -> r.storedKey = null;
                case 4 -> r.serverKey = new byte[ScramCredentialEntry.MAX_BYTES + 1];
                case 5 -> r.iterations = 0;
                default -> r.user = null;
            }
            ScramRecord read = (ScramRecord) decode(encode(r, 64), 64);
            assertThrows(CodecException.class, read::toEntry, "field " + field);
            DeltaRecord d = new DeltaRecord();
            d.controllerEpoch = 2;
            d.setScram.add(read);
            DeltaRecord readDelta = (DeltaRecord) decode(encode(d, 64), 64);
            assertThrows(CodecException.class, () -> base().apply(readDelta, 1), "field " + field);
        }
        DeltaRecord wrongType = new DeltaRecord();
        wrongType.controllerEpoch = 2;
        wrongType.deletedScram = (List) List.of(ConfigRecord.broker(1, Map.of()));
        DeltaRecord readWrong = (DeltaRecord) decode(encode(wrongType, 64), 64);
        assertThrows(CodecException.class, () -> base().apply(readWrong, 1));
        SnapshotRecord twice = base().toSnapshot();
        twice.scramCredentials.add(ScramRecord.of(ALICE_256));
        twice.scramCredentials.add(ScramRecord.of(entry("alice", ScramCredentialEntry.SCRAM_SHA_256, 5000, 4)));
        SnapshotRecord readTwice = (SnapshotRecord) decode(encode(twice, 64), 64);
        assertThrows(CodecException.class, () -> ClusterState.fromSnapshot(readTwice), "one credential per key");
    }

    @Test
    void shouldNeverShowKeysInText() {
        assertTrue(!ALICE_256.toString().contains(java.util.Arrays.toString(ALICE_256.storedKey())));
        assertTrue(ALICE_256.toString().contains("alice"));
    }

    @Test
    void shouldNotAllocateForAForgedLength() {
        for (Message m : List.of(
                ScramRecord.of(ALICE_512),
                scramDelta(0, List.of(ALICE_512), List.of(BOB_256)),
                base().apply(scramDelta(0, List.of(BOB_256), List.of()), 1).toSnapshot())) {
            WireChecks.forgeEveryLength(m, ScramWireTest::use);
        }
    }

    @Test
    void shouldAskForMoreBytesAtEveryTruncation() {
        WireChecks.assertEveryTruncationAsksForMore(List.of(
                ScramRecord.of(ALICE_256),
                ScramRecord.deletion(BOB_256.key()),
                scramDelta(0, List.of(ALICE_256), List.of(BOB_256)),
                base().apply(scramDelta(0, List.of(ALICE_512), List.of()), 1).toSnapshot()));
    }

    @Property(tries = 500)
    void garbageInScramRecordsEndsInATypedError(
            @ForAll byte[] garbage, @ForAll @IntRange(min = 0, max = 200) int at, @ForAll boolean delta) {
        Message m = delta
                ? scramDelta(0, List.of(ALICE_256, ALICE_512), List.of(BOB_256))
                : base().apply(scramDelta(0, List.of(ALICE_256), List.of()), 1).toSnapshot();
        WireChecks.decodeSplicedGarbage(m, garbage, at, ScramWireTest::use);
    }

    /** Uses a decoded message as a broker would: credentials checked, deltas applied, snapshots loaded. */
    private static void use(Message read) {
        if (read instanceof ScramRecord s) {
            s.toEntry();
        } else if (read instanceof DeltaRecord d && d.controllerEpoch == 2 && d.prevSeq == 0) {
            base().apply(d, 1);
        } else if (read instanceof SnapshotRecord s) {
            ClusterState.fromSnapshot(s);
        }
    }
}
