package io.sluice.broker.group.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.junit.jupiter.api.Test;

class GroupRecordCodecTest {

    @Provide
    Arbitrary<List<GroupRecord>> batches() {
        return records().list().ofMinSize(1).ofMaxSize(6);
    }

    @Provide
    Arbitrary<GroupRecord> oneRecord() {
        return records();
    }

    private Arbitrary<GroupRecord> records() {
        Arbitrary<String> names =
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(12);
        Arbitrary<String> nullable = Arbitraries.strings().ofMaxLength(20).injectNull(0.3);
        Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(40);
        Arbitrary<GroupRecord> offsets = Combinators.combine(
                        names,
                        names,
                        Arbitraries.integers(),
                        Arbitraries.longs(),
                        Arbitraries.integers(),
                        nullable,
                        Arbitraries.longs(),
                        Arbitraries.longs())
                .as(GroupRecord.OffsetCommit::new);
        Arbitrary<GroupRecord> offsetTombstones =
                Combinators.combine(names, names, Arbitraries.integers()).as(GroupRecord.OffsetTombstone::new);
        Arbitrary<GroupRecord.Member> members = Combinators.combine(
                        names, nullable, names, names, Arbitraries.integers(), Arbitraries.integers(), bytes, bytes)
                .as(GroupRecord.Member::new);
        Arbitrary<GroupRecord> groups = Combinators.combine(
                        names,
                        nullable,
                        Arbitraries.integers(),
                        nullable,
                        nullable,
                        Arbitraries.longs(),
                        members.list().ofMaxSize(4))
                .as(GroupRecord.GroupMetadata::new);
        Arbitrary<GroupRecord> groupTombstones = names.map(GroupRecord.GroupTombstone::new);
        return Arbitraries.oneOf(offsets, offsetTombstones, groups, groupTombstones);
    }

    /** A batch is one ordinary Kafka v2 batch: every record comes back, in order, tombstones without a value. */
    @Property
    void shouldRoundTripEveryRecordThroughOneKafkaBatch(@ForAll("batches") List<GroupRecord> records) throws Exception {
        ByteBuffer batch = GroupRecordCodec.batch(records, 1234L);
        List<MutableRecordBatch> batches = new ArrayList<>();
        MemoryRecords.readableRecords(batch).batches().forEach(batches::add);
        assertEquals(1, batches.size(), "one append is one batch");
        MutableRecordBatch only = batches.get(0);
        only.ensureValid();
        assertEquals(RecordBatch.MAGIC_VALUE_V2, only.magic());
        int i = 0;
        for (Record record : only) {
            GroupRecord expected = records.get(i++);
            assertEquals(1234L, record.timestamp());
            assertEquals(expected.isTombstone(), !record.hasValue());
            assertSame(expected, GroupRecordCodec.decode(record.key(), record.value()));
        }
        assertEquals(records.size(), i);
    }

    @Property
    void shouldGiveEveryRecordOfAKeyTheSameKeyBytes(@ForAll("oneRecord") GroupRecord record) {
        GroupRecord remover = record instanceof GroupRecord.OffsetCommit c
                ? new GroupRecord.OffsetTombstone(c.groupId(), c.topic(), c.partition())
                : record instanceof GroupRecord.OffsetTombstone t
                        ? new GroupRecord.OffsetCommit(t.groupId(), t.topic(), t.partition(), 1, 1, null, 1, 1)
                        : new GroupRecord.GroupTombstone(record.groupId());
        assertArrayEquals(GroupRecordCodec.key(record), GroupRecordCodec.key(remover));
    }

    private static void assertSame(GroupRecord expected, GroupRecord actual) {
        if (expected instanceof GroupRecord.GroupMetadata e && actual instanceof GroupRecord.GroupMetadata a) {
            assertEquals(
                    new GroupRecord.GroupMetadata(
                            e.groupId(),
                            e.protocolType(),
                            e.generationId(),
                            e.protocolName(),
                            e.leaderId(),
                            e.stateTimestampMs(),
                            List.of()),
                    new GroupRecord.GroupMetadata(
                            a.groupId(),
                            a.protocolType(),
                            a.generationId(),
                            a.protocolName(),
                            a.leaderId(),
                            a.stateTimestampMs(),
                            List.of()));
            assertEquals(e.members().size(), a.members().size());
            for (int i = 0; i < e.members().size(); i++) {
                GroupRecord.Member em = e.members().get(i);
                GroupRecord.Member am = a.members().get(i);
                assertEquals(
                        List.of(
                                em.memberId(),
                                String.valueOf(em.groupInstanceId()),
                                em.clientId(),
                                em.clientHost(),
                                em.rebalanceTimeoutMs(),
                                em.sessionTimeoutMs()),
                        List.of(
                                am.memberId(),
                                String.valueOf(am.groupInstanceId()),
                                am.clientId(),
                                am.clientHost(),
                                am.rebalanceTimeoutMs(),
                                am.sessionTimeoutMs()));
                assertArrayEquals(em.subscription(), am.subscription());
                assertArrayEquals(em.assignment(), am.assignment());
            }
        } else {
            assertEquals(expected, actual);
        }
    }

    @Test
    void shouldRefuseRecordsWithoutKeyOrWithUnknownTypeOrVersion() {
        GroupRecord commit = StoreFixtures.offset("g", 0, 1);
        ByteBuffer value = ByteBuffer.wrap(GroupRecordCodec.value(commit));
        assertTrue(assertThrows(GroupStoreCorruptException.class, () -> GroupRecordCodec.decode(null, value))
                .getMessage()
                .contains("without a key"));
        byte[] key = GroupRecordCodec.key(commit);
        key[GroupRecordDescriptor.KEY_TYPE_OFFSET] = 9;
        assertTrue(assertThrows(
                        GroupStoreCorruptException.class, () -> GroupRecordCodec.decode(ByteBuffer.wrap(key), value))
                .getMessage()
                .contains("key type 9"));
        byte[] newer = GroupRecordCodec.value(commit);
        newer[GroupRecordDescriptor.VALUE_VERSION_OFFSET] = 2;
        assertTrue(assertThrows(
                        GroupStoreCorruptException.class,
                        () -> GroupRecordCodec.decode(
                                ByteBuffer.wrap(GroupRecordCodec.key(commit)), ByteBuffer.wrap(newer)))
                .getMessage()
                .contains("version 2"));
    }

    @Test
    void shouldEncodeTombstonesWithoutValue() {
        assertNull(GroupRecordCodec.value(new GroupRecord.GroupTombstone("g")));
        assertNull(GroupRecordCodec.value(new GroupRecord.OffsetTombstone("g", "t", 0)));
    }

    /** Any key and value bytes decode or fail with the typed error: never another exception or OOM. */
    @Property
    void shouldDecodeGarbageIntoTypedErrorOnly(
            @ForAll @Size(max = 300) byte[] key, @ForAll @Size(max = 300) byte[] value, @ForAll boolean tombstone) {
        decodeOrTypedError(key, tombstone ? null : value);
    }

    /** Every truncation and every single-byte change of a valid key or value ends in a record or the typed error. */
    @Property(tries = 200)
    void shouldSurviveTruncatedAndMutatedRecords(@ForAll("oneRecord") GroupRecord record, @ForAll byte flip) {
        byte[] key = GroupRecordCodec.key(record);
        byte[] value = GroupRecordCodec.value(record);
        for (byte[] k : variants(key, flip)) {
            decodeOrTypedError(k, value);
        }
        if (value != null) {
            for (byte[] v : variants(value, flip)) {
                decodeOrTypedError(key, v);
            }
        }
    }

    private static List<byte[]> variants(byte[] bytes, byte flip) {
        List<byte[]> variants = new ArrayList<>();
        for (int cut = 0; cut < bytes.length; cut++) {
            variants.add(Arrays.copyOf(bytes, cut));
        }
        for (int i = 0; i < bytes.length; i++) {
            byte[] mutated = bytes.clone();
            mutated[i] ^= (byte) (flip == 0 ? 1 : flip);
            variants.add(mutated);
        }
        return variants;
    }

    private static void decodeOrTypedError(byte[] key, byte[] value) {
        try {
            GroupRecordCodec.decode(ByteBuffer.wrap(key), value == null ? null : ByteBuffer.wrap(value));
        } catch (GroupStoreCorruptException expected) {
            // the only acceptable failure
        }
    }
}
