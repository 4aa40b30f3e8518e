package io.sluice.broker.group.store;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class GroupRecordCodecTest {

    @Provide
    Arbitrary<List<GroupRecord>> batches() {
        return records().list().ofMaxSize(6);
    }

    @Provide
    Arbitrary<List<GroupRecord>> nonEmptyBatches() {
        return records().list().ofMinSize(1).ofMaxSize(4);
    }

    private Arbitrary<GroupRecord> records() {
        Arbitrary<String> names = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(12);
        Arbitrary<String> nullable = Arbitraries.strings().ofMaxLength(20).injectNull(0.3);
        Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(40);
        Arbitrary<GroupRecord> offsets = Combinators.combine(names, names, Arbitraries.integers(),
                Arbitraries.longs(), Arbitraries.integers(), nullable, Arbitraries.longs(), Arbitraries.longs())
                .as(GroupRecord.OffsetCommit::new);
        Arbitrary<GroupRecord> offsetTombstones = Combinators.combine(names, names, Arbitraries.integers())
                .as(GroupRecord.OffsetTombstone::new);
        Arbitrary<GroupRecord.Member> members = Combinators.combine(names, nullable, names, names,
                Arbitraries.integers(), Arbitraries.integers(), bytes, bytes).as(GroupRecord.Member::new);
        Arbitrary<GroupRecord> groups = Combinators.combine(names, nullable, Arbitraries.integers(), nullable,
                        nullable, Arbitraries.longs(), members.list().ofMaxSize(4))
                .as(GroupRecord.GroupMetadata::new);
        Arbitrary<GroupRecord> groupTombstones = names.map(GroupRecord.GroupTombstone::new);
        return Arbitraries.oneOf(offsets, offsetTombstones, groups, groupTombstones);
    }

    @Property
    void shouldRoundTripEveryRecord(@ForAll("batches") List<GroupRecord> records) throws Exception {
        ByteBuffer frame = GroupRecordCodec.encodeFrame(records);
        int length = frame.getInt(GroupLogDescriptor.LENGTH_OFFSET);
        assertEquals(frame.remaining() - GroupLogDescriptor.FRAME_HEADER_LENGTH, length);
        assertEquals(frame.getInt(GroupLogDescriptor.CRC_OFFSET),
                GroupRecordCodec.crcOf(frame.array(), GroupLogDescriptor.FRAME_HEADER_LENGTH, length));
        List<GroupRecord> decoded = GroupRecordCodec.decodePayload(
                ByteBuffer.wrap(frame.array(), GroupLogDescriptor.FRAME_HEADER_LENGTH, length));
        assertEquals(records.size(), decoded.size());
        for (int i = 0; i < records.size(); i++) {
            assertSame(records.get(i), decoded.get(i));
        }
    }

    private static void assertSame(GroupRecord expected, GroupRecord actual) {
        if (expected instanceof GroupRecord.GroupMetadata e && actual instanceof GroupRecord.GroupMetadata a) {
            assertEquals(new GroupRecord.GroupMetadata(e.groupId(), e.protocolType(), e.generationId(),
                    e.protocolName(), e.leaderId(), e.stateTimestampMs(), List.of()),
                    new GroupRecord.GroupMetadata(a.groupId(), a.protocolType(), a.generationId(), a.protocolName(),
                            a.leaderId(), a.stateTimestampMs(), List.of()));
            assertEquals(e.members().size(), a.members().size());
            for (int i = 0; i < e.members().size(); i++) {
                GroupRecord.Member em = e.members().get(i);
                GroupRecord.Member am = a.members().get(i);
                assertEquals(List.of(em.memberId(), String.valueOf(em.groupInstanceId()), em.clientId(), em.clientHost(),
                                em.rebalanceTimeoutMs(), em.sessionTimeoutMs()),
                        List.of(am.memberId(), String.valueOf(am.groupInstanceId()), am.clientId(), am.clientHost(),
                                am.rebalanceTimeoutMs(), am.sessionTimeoutMs()));
                assertArrayEquals(em.subscription(), am.subscription());
                assertArrayEquals(em.assignment(), am.assignment());
            }
        } else {
            assertEquals(expected, actual);
        }
    }

    /** Any payload, valid CRC or not, decodes or fails with the typed error: never another exception or OOM. */
    @Property
    void shouldDecodeGarbageIntoTypedErrorOnly(@ForAll @Size(max = 300) byte[] garbage) {
        try {
            GroupRecordCodec.decodePayload(ByteBuffer.wrap(garbage));
        } catch (GroupStoreCorruptException expected) {
            // the only acceptable failure
        }
    }

    /** Every truncation and every single-byte change of a valid payload ends in records or the typed error. */
    @Property(tries = 200)
    void shouldSurviveTruncatedAndMutatedPayloads(@ForAll("nonEmptyBatches") List<GroupRecord> records,
                                                  @ForAll byte flip) {
        ByteBuffer frame = GroupRecordCodec.encodeFrame(records);
        byte[] payload = new byte[frame.remaining() - GroupLogDescriptor.FRAME_HEADER_LENGTH];
        System.arraycopy(frame.array(), GroupLogDescriptor.FRAME_HEADER_LENGTH, payload, 0, payload.length);
        List<byte[]> variants = new ArrayList<>();
        for (int cut = 0; cut < payload.length; cut++) {
            variants.add(java.util.Arrays.copyOf(payload, cut));
        }
        for (int i = 0; i < payload.length; i++) {
            byte[] mutated = payload.clone();
            mutated[i] ^= (byte) (flip == 0 ? 1 : flip);
            variants.add(mutated);
        }
        for (byte[] variant : variants) {
            try {
                GroupRecordCodec.decodePayload(ByteBuffer.wrap(variant));
            } catch (GroupStoreCorruptException expected) {
                // typed failure
            }
        }
    }
}
