package io.sluice.cluster.state.wire;

import static io.sluice.cluster.state.wire.ConfigWireTest.base;
import static io.sluice.cluster.state.wire.PartitionEpochWireTest.decode;
import static io.sluice.cluster.state.wire.PartitionEpochWireTest.encode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.ClusterState;
import io.sluice.codec.error.CodecException;
import io.sluice.codec.message.Message;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The client quota table as a ConfigRecord of entity type CLIENT_QUOTAS (schema v0 of every record involved): round
 * trips through deltas and snapshots at any split, replaces the previous table whole, an empty table removes every
 * quota, and malformed keys, two tables in a snapshot or garbage end in a typed error.
 */
class ClientQuotaWireTest {
    static final Map<String, Map<String, String>> QUOTAS = Map.of(
            "clients/app-1", Map.of("producer_byte_rate", "1048576", "consumer_byte_rate", "2048"),
            "users/alice/clients/%3Cdefault%3E", Map.of("request_percentage", "50.0"),
            "users/<default>", Map.of("producer_byte_rate", "10"),
            "ips/10.0.0.1", Map.of("connection_creation_rate", "7"));

    static DeltaRecord quotaDelta(long prevSeq, Map<String, Map<String, String>> quotas) {
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = 2;
        d.prevSeq = prevSeq;
        d.configChanges.add(ConfigRecord.clientQuotas(quotas));
        return d;
    }

    @Test
    void shouldRoundTripTheQuotaTableThroughAnySplit() {
        for (int chunk : new int[] {1, 3, 7, 64, 4096}) {
            DeltaRecord back = (DeltaRecord) decode(encode(quotaDelta(0, QUOTAS), chunk), chunk);
            assertEquals(1, back.version(), "a config change, nothing newer: readable by brokers that know v1 deltas");
            ClusterState applied = base().apply(back, 1);
            assertEquals(QUOTAS, applied.clientQuotaConfigs());
            assertEquals(Map.of(), applied.allBrokerConfigs(), "not a broker configuration");

            SnapshotRecord snap = (SnapshotRecord) decode(encode(applied.toSnapshot(), chunk), chunk);
            ClusterState reloaded = ClusterState.fromSnapshot(snap);
            assertEquals(QUOTAS, reloaded.clientQuotaConfigs());
            assertTrue(reloaded.sameContent(applied), "chunk " + chunk);
        }
    }

    @Test
    void shouldReplaceTheTableWholeAndShareItWhileUnchanged() {
        ClusterState first = base().apply(quotaDelta(0, QUOTAS), 1);
        ClusterState second = first.apply(quotaDelta(1, Map.of("clients/app-2", Map.of("producer_byte_rate", "5"))), 2);
        assertEquals(Map.of("clients/app-2", Map.of("producer_byte_rate", "5")), second.clientQuotaConfigs());
        ClusterState third = second.apply(ConfigWireTest.configDeltaWithoutTopic(2), 3);
        assertSame(second.clientQuotaConfigs(), third.clientQuotaConfigs(), "a broker config change leaves quotas");
        ClusterState cleared = third.apply(quotaDelta(3, Map.of()), 4);
        assertEquals(Map.of(), cleared.clientQuotaConfigs());
        assertEquals(
                0,
                ClusterState.fromSnapshot(cleared.toSnapshot())
                        .clientQuotaConfigs()
                        .size());
        assertTrue(cleared.toSnapshot().brokerConfigs.size() == 1, "no quota table in the snapshot once empty");
    }

    @Test
    void shouldRefuseMalformedQuotaKeysAndTwoTables() {
        for (String key : new String[] {"producer_byte_rate", "/producer_byte_rate", "clients/app-1/"}) {
            ConfigRecord bad = ConfigRecord.clientQuotas(Map.of());
            bad.configKeys = List.of(key);
            bad.configValues = List.of("1");
            ConfigRecord read = (ConfigRecord) decode(encode(bad, 64), 64);
            assertThrows(CodecException.class, read::clientQuotaConfigs, key);
        }
        assertThrows(CodecException.class, ConfigRecord.broker(1, Map.of())::clientQuotaConfigs);

        SnapshotRecord twoTables = base().apply(quotaDelta(0, QUOTAS), 1).toSnapshot();
        twoTables.brokerConfigs.add(ConfigRecord.clientQuotas(QUOTAS));
        SnapshotRecord read = (SnapshotRecord) decode(encode(twoTables, 64), 64);
        assertThrows(CodecException.class, () -> ClusterState.fromSnapshot(read));
    }

    @Test
    void shouldAskForMoreBytesAtEveryTruncation() {
        WireChecks.assertEveryTruncationAsksForMore(List.of(
                ConfigRecord.clientQuotas(QUOTAS),
                quotaDelta(0, QUOTAS),
                base().apply(quotaDelta(0, QUOTAS), 1).toSnapshot()));
    }

    @Test
    void shouldNotAllocateForAForgedListLength() {
        WireChecks.forgeEveryLength(ConfigRecord.clientQuotas(QUOTAS), read -> {
            if (read instanceof ConfigRecord c) {
                c.clientQuotaConfigs();
            }
        });
    }

    @Property(tries = 300)
    void garbageInTheQuotaTableEndsInATypedError(
            @ForAll byte[] garbage, @ForAll @IntRange(min = 0, max = 120) int at, @ForAll boolean delta) {
        Message m = delta
                ? quotaDelta(0, QUOTAS)
                : base().apply(quotaDelta(0, QUOTAS), 1).toSnapshot();
        WireChecks.decodeSplicedGarbage(m, garbage, at, read -> {
            if (read instanceof DeltaRecord d && d.controllerEpoch == 2 && d.prevSeq == 0) {
                base().apply(d, 1);
            } else if (read instanceof SnapshotRecord s) {
                ClusterState.fromSnapshot(s);
            }
        });
    }
}
