package io.sluice.broker.group.store;

import static io.sluice.broker.group.store.StoreFixtures.group;
import static io.sluice.broker.group.store.StoreFixtures.metadata;
import static io.sluice.broker.group.store.StoreFixtures.offset;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the group files of the pre-replication store: what its recovery kept is what the import gets. */
class LegacyGroupLogTest {
    private static final int PARTITIONS = 3;

    @TempDir
    Path dir;

    private Path logOf(String group) {
        return LegacyGroupFiles.logOf(dir, GroupPartitioner.partitionFor(group, PARTITIONS));
    }

    @Test
    void shouldReadLatestRecordPerKeyAcrossPartitions() throws IOException {
        LegacyGroupFiles.append(dir, PARTITIONS, List.of(offset("g", 0, 1), offset("g", 1, 10)));
        LegacyGroupFiles.append(dir, PARTITIONS, List.of(offset("g", 0, 2), group("g", 1)));
        LegacyGroupFiles.append(dir, PARTITIONS, List.of(group("g", 2)));
        LegacyGroupFiles.append(dir, PARTITIONS, List.of(offset("h", 0, 5)));
        List<GroupRecord> live = LegacyGroupLog.readLive(dir);
        assertEquals(4, live.size());
        assertTrue(live.contains(offset("g", 0, 2)));
        assertTrue(live.contains(offset("g", 1, 10)));
        assertTrue(live.contains(offset("h", 0, 5)));
        GroupRecord.GroupMetadata g = metadata(live);
        assertEquals(2, g.generationId());
        assertEquals("instance-2", g.members().get(1).groupInstanceId());
        assertArrayEquals(new byte[] {4, 5, 6}, g.members().get(1).assignment());
    }

    @Test
    void shouldDropTombstonedKeys() throws IOException {
        LegacyGroupFiles.append(dir, PARTITIONS, List.of(offset("g", 0, 1), offset("g", 1, 1), group("g", 1)));
        LegacyGroupFiles.append(
                dir,
                PARTITIONS,
                List.of(new GroupRecord.OffsetTombstone("g", "topic", 0), new GroupRecord.GroupTombstone("g")));
        assertEquals(List.of(offset("g", 1, 1)), LegacyGroupLog.readLive(dir));
    }

    /** The bytes the file store wrote for one offset commit, laid out field by field as its encoder did. */
    @Test
    void shouldReadWhatTheFileStoreWrote() throws IOException {
        ByteBuffer payload = ByteBuffer.allocate(256);
        payload.put(GroupLogDescriptor.CURRENT_VERSION).putInt(1).put(GroupLogDescriptor.TYPE_OFFSET_COMMIT);
        putString(payload, "g");
        putString(payload, "orders");
        payload.putInt(4).putLong(42L).putInt(7);
        putString(payload, "meta");
        payload.putLong(1234L).putLong(-1L);
        byte[] bytes = Arrays.copyOf(payload.array(), payload.position());
        Path log = logOf("g");
        Files.createDirectories(log.getParent());
        Files.write(log, LegacyGroupFiles.frame(bytes).array());
        assertEquals(
                List.of(new GroupRecord.OffsetCommit("g", "orders", 4, 42L, 7, "meta", 1234L, -1L)),
                LegacyGroupLog.readLive(dir));
    }

    private static void putString(ByteBuffer out, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.putShort((short) utf8.length).put(utf8);
    }

    @Test
    void shouldStopAtEveryTornTail() throws IOException {
        LegacyGroupFiles.append(dir, PARTITIONS, List.of(offset("g", 0, 1)));
        long intact = Files.size(logOf("g"));
        LegacyGroupFiles.append(dir, PARTITIONS, List.of(offset("g", 0, 2), offset("g", 1, 2)));
        byte[] full = Files.readAllBytes(logOf("g"));
        for (long cut = intact; cut < full.length; cut++) {
            Files.write(logOf("g"), Arrays.copyOf(full, (int) cut));
            assertEquals(
                    List.of(offset("g", 0, 1)),
                    LegacyGroupLog.readLive(dir),
                    "a torn frame is dropped whole (cut at " + cut + ")");
        }
    }

    @Test
    void shouldStopAtCorruptedByte() throws IOException {
        LegacyGroupFiles.append(dir, PARTITIONS, List.of(offset("g", 0, 1)));
        LegacyGroupFiles.append(dir, PARTITIONS, List.of(offset("g", 1, 1)));
        byte[] bytes = Files.readAllBytes(logOf("g"));
        bytes[bytes.length - 3] ^= 0x40;
        Files.write(logOf("g"), bytes);
        assertEquals(List.of(offset("g", 0, 1)), LegacyGroupLog.readLive(dir));
    }

    @Test
    void shouldTreatForgedLengthAsTornTailWithoutAllocatingIt() throws IOException {
        Path log = logOf("g");
        Files.createDirectories(log.getParent());
        ByteBuffer header = ByteBuffer.allocate(GroupLogDescriptor.FRAME_HEADER_LENGTH + 16);
        header.putInt(GroupLogDescriptor.LENGTH_OFFSET, Integer.MAX_VALUE);
        Files.write(log, header.array());
        assertEquals(List.of(), LegacyGroupLog.readLive(dir));
    }

    @Test
    void shouldSurviveRandomGarbageFiles() throws IOException {
        Random random = new Random(42);
        Path log = logOf("g");
        Files.createDirectories(log.getParent());
        for (int i = 0; i < 200; i++) {
            byte[] garbage = new byte[random.nextInt(256)];
            random.nextBytes(garbage);
            Files.write(log, garbage);
            assertEquals(List.of(), LegacyGroupLog.readLive(dir), "random bytes never pass the CRC");
        }
    }

    @Test
    void shouldReportCorruptContentBehindValidChecksum() throws IOException {
        Path log = logOf("g");
        Files.createDirectories(log.getParent());
        Files.write(
                log,
                LegacyGroupFiles.frame(new byte[] {GroupLogDescriptor.CURRENT_VERSION, 0, 0, 0, 1, 99, 0, 0})
                        .array());
        GroupStoreCorruptException e =
                assertThrows(GroupStoreCorruptException.class, () -> LegacyGroupLog.readLive(dir));
        assertTrue(e.getMessage().contains("unknown group record type 99"), e.getMessage());
        assertTrue(e.getMessage().contains(log.toString()), e.getMessage());
    }

    @Test
    void shouldDecodeTruncatedAndMutatedPayloadsIntoRecordsOrTypedError() {
        byte[] payload = new byte
                [LegacyGroupFiles.frame(List.of(group("g", 1), offset("g", 0, 1)))
                                .remaining()
                        - GroupLogDescriptor.FRAME_HEADER_LENGTH];
        LegacyGroupFiles.frame(List.of(group("g", 1), offset("g", 0, 1)))
                .position(GroupLogDescriptor.FRAME_HEADER_LENGTH)
                .get(payload);
        for (int cut = 0; cut <= payload.length; cut++) {
            decodeOrTypedError(Arrays.copyOf(payload, cut));
        }
        for (int i = 0; i < payload.length; i++) {
            byte[] mutated = payload.clone();
            mutated[i] ^= (byte) 0x81;
            decodeOrTypedError(mutated);
        }
    }

    private static void decodeOrTypedError(byte[] payload) {
        try {
            LegacyGroupLog.decodePayload(ByteBuffer.wrap(payload));
        } catch (GroupStoreCorruptException expected) {
            // the only acceptable failure
        }
    }
}
