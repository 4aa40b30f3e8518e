package io.sluice.broker.group.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FileGroupStoreTest {
    private static final int PARTITIONS = 3;

    @TempDir
    Path dir;

    private static GroupRecord.OffsetCommit offset(String group, int partition, long offset) {
        return new GroupRecord.OffsetCommit(group, "topic", partition, offset, 3, "meta-" + offset, 1000L + offset, -1L);
    }

    private static GroupRecord.GroupMetadata group(String group, int generation) {
        return new GroupRecord.GroupMetadata(group, "consumer", generation, "range", "m1", 77L, List.of(
                new GroupRecord.Member("m1", null, "client", "/10.0.0.1", 300000, 45000, new byte[]{1, 2},
                        new byte[]{3}),
                new GroupRecord.Member("m2", "instance-2", "client", "/10.0.0.2", 300000, 45000, new byte[0],
                        new byte[]{4, 5, 6})));
    }

    private Path logOf(String group) {
        return dir.resolve(GroupLogDescriptor.PARTITION_DIR_PREFIX + GroupPartitioner.partitionFor(group, PARTITIONS))
                .resolve(GroupLogDescriptor.LOG_FILE_NAME);
    }

    private List<GroupRecord> reload() throws IOException {
        try (FileGroupStore store = new FileGroupStore(dir, PARTITIONS)) {
            return store.load();
        }
    }

    private static GroupRecord.OffsetCommit only(List<GroupRecord> records, int partition) {
        return records.stream().filter(r -> r instanceof GroupRecord.OffsetCommit c && c.partition() == partition)
                .map(r -> (GroupRecord.OffsetCommit) r).findFirst().orElse(null);
    }

    @Test
    void shouldReloadLatestRecordPerKey() throws IOException {
        try (FileGroupStore store = new FileGroupStore(dir, PARTITIONS)) {
            assertEquals(List.of(), store.load());
            store.append("g", List.of(offset("g", 0, 1), offset("g", 1, 10)));
            store.append("g", List.of(offset("g", 0, 2), group("g", 1)));
            store.append("g", List.of(group("g", 2)));
            store.append("h", List.of(offset("h", 0, 5)));
        }
        List<GroupRecord> loaded = reload();
        assertEquals(4, loaded.size());
        assertEquals(offset("g", 0, 2), loaded.stream().filter(r -> r.equals(offset("g", 0, 2))).findFirst().orElseThrow());
        GroupRecord.GroupMetadata g = (GroupRecord.GroupMetadata) loaded.stream()
                .filter(r -> r instanceof GroupRecord.GroupMetadata).findFirst().orElseThrow();
        assertEquals(2, g.generationId());
        assertEquals("instance-2", g.members().get(1).groupInstanceId());
        assertArrayEquals(new byte[]{4, 5, 6}, g.members().get(1).assignment());
    }

    @Test
    void shouldForgetTombstonedKeys() throws IOException {
        try (FileGroupStore store = new FileGroupStore(dir, PARTITIONS)) {
            store.load();
            store.append("g", List.of(offset("g", 0, 1), offset("g", 1, 1), group("g", 1)));
            store.append("g", List.of(new GroupRecord.OffsetTombstone("g", "topic", 0),
                    new GroupRecord.GroupTombstone("g")));
        }
        List<GroupRecord> loaded = reload();
        assertEquals(List.of(offset("g", 1, 1)), loaded);
    }

    @Test
    void shouldRefuseAppendsAfterClose() throws IOException {
        FileGroupStore store = new FileGroupStore(dir, PARTITIONS);
        store.load();
        store.close();
        IOException e = assertThrows(IOException.class, () -> store.append("g", List.of(offset("g", 0, 1))));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertEquals(List.of(), reload());
    }

    @Test
    void shouldRefuseRecordsOfAnotherGroup() throws IOException {
        try (FileGroupStore store = new FileGroupStore(dir, PARTITIONS)) {
            store.load();
            assertThrows(IllegalArgumentException.class, () -> store.append("g", List.of(offset("other", 0, 1))));
        }
    }

    @Test
    void shouldTruncateEveryTornTailAndKeepAppending() throws IOException {
        try (FileGroupStore store = new FileGroupStore(dir, PARTITIONS)) {
            store.load();
            store.append("g", List.of(offset("g", 0, 1)));
        }
        long intact = Files.size(logOf("g"));
        try (FileGroupStore store = new FileGroupStore(dir, PARTITIONS)) {
            store.load();
            store.append("g", List.of(offset("g", 0, 2), offset("g", 1, 2)));
        }
        byte[] full = Files.readAllBytes(logOf("g"));
        for (long cut = intact; cut < full.length; cut++) {
            Files.write(logOf("g"), java.util.Arrays.copyOf(full, (int) cut));
            List<GroupRecord> loaded = reload();
            assertEquals(List.of(offset("g", 0, 1)), loaded, "a torn batch is dropped whole (cut at " + cut + ")");
            assertEquals(intact, Files.size(logOf("g")), "the torn tail is truncated");
        }
        try (FileGroupStore store = new FileGroupStore(dir, PARTITIONS)) {
            store.load();
            store.append("g", List.of(offset("g", 0, 3)));
        }
        assertEquals(List.of(offset("g", 0, 3)), reload());
    }

    @Test
    void shouldTruncateAtCorruptedByte() throws IOException {
        try (FileGroupStore store = new FileGroupStore(dir, PARTITIONS)) {
            store.load();
            store.append("g", List.of(offset("g", 0, 1)));
            store.append("g", List.of(offset("g", 1, 1)));
        }
        byte[] bytes = Files.readAllBytes(logOf("g"));
        bytes[bytes.length - 3] ^= 0x40;
        Files.write(logOf("g"), bytes);
        assertEquals(List.of(offset("g", 0, 1)), reload());
    }

    @Test
    void shouldTreatForgedLengthAsTornTailWithoutAllocatingIt() throws IOException {
        Path log = logOf("g");
        Files.createDirectories(log.getParent());
        ByteBuffer header = ByteBuffer.allocate(GroupLogDescriptor.FRAME_HEADER_LENGTH + 16);
        header.putInt(GroupLogDescriptor.LENGTH_OFFSET, Integer.MAX_VALUE);
        Files.write(log, header.array());
        assertEquals(List.of(), reload());
        assertEquals(0, Files.size(log));
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
            assertEquals(List.of(), reload(), "random bytes never pass the CRC");
        }
    }

    @Test
    void shouldReportCorruptContentBehindValidChecksum() throws IOException {
        Path log = logOf("g");
        Files.createDirectories(log.getParent());
        byte[] payload = {GroupLogDescriptor.CURRENT_VERSION, 0, 0, 0, 1, 99, 0, 0};
        ByteBuffer frame = ByteBuffer.allocate(GroupLogDescriptor.FRAME_HEADER_LENGTH + payload.length);
        frame.putInt(GroupLogDescriptor.LENGTH_OFFSET, payload.length);
        frame.putInt(GroupLogDescriptor.CRC_OFFSET, GroupRecordCodec.crcOf(payload, 0, payload.length));
        frame.position(GroupLogDescriptor.FRAME_HEADER_LENGTH);
        frame.put(payload);
        Files.write(log, frame.array());
        GroupStoreCorruptException e = assertThrows(GroupStoreCorruptException.class, this::reload);
        assertTrue(e.getMessage().contains("unknown group record type 99"), e.getMessage());
    }

    @Test
    void shouldCompactWhenMostRecordsAreDead() throws IOException {
        try (FileGroupStore store = new FileGroupStore(dir, PARTITIONS, 100, 0.5)) {
            store.load();
            for (int i = 0; i < 1000; i++) {
                store.append("g", List.of(offset("g", i % 3, i)));
            }
        }
        long size = Files.size(logOf("g"));
        long oneRecordFrame = GroupRecordCodec.encodeFrame(List.of(offset("g", 0, 999))).remaining();
        assertTrue(size < oneRecordFrame * 120, "compaction keeps the file near its live size, was " + size);
        List<GroupRecord> loaded = reload();
        assertEquals(3, loaded.size());
        assertEquals(999L, only(loaded, 0).offset());
        assertEquals(997L, only(loaded, 1).offset());
        assertEquals(998L, only(loaded, 2).offset());
    }

    @Test
    void shouldIgnoreLeftoverCompactionFile() throws IOException {
        try (FileGroupStore store = new FileGroupStore(dir, PARTITIONS)) {
            store.load();
            store.append("g", List.of(offset("g", 0, 1)));
        }
        Files.write(logOf("g").resolveSibling(GroupLogDescriptor.COMPACTION_FILE_NAME), new byte[]{1, 2, 3});
        assertEquals(List.of(offset("g", 0, 1)), reload());
        assertTrue(!Files.exists(logOf("g").resolveSibling(GroupLogDescriptor.COMPACTION_FILE_NAME)));
    }

    @Test
    void shouldRefuseToLoadWithFewerPartitionsThanOnDisk() throws IOException {
        Files.createDirectories(dir.resolve(GroupLogDescriptor.PARTITION_DIR_PREFIX + "7"));
        IOException e = assertThrows(IOException.class, this::reload);
        assertTrue(e.getMessage().contains("partition 7"), e.getMessage());
    }

    @Test
    void shouldSpreadGroupsOverPartitionsLikeKafka() throws IOException {
        List<String> groups = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            groups.add("group-" + i);
        }
        try (FileGroupStore store = new FileGroupStore(dir, PARTITIONS)) {
            store.load();
            for (String g : groups) {
                store.append(g, List.of(offset(g, 0, 1)));
            }
        }
        for (int p = 0; p < PARTITIONS; p++) {
            assertTrue(Files.exists(dir.resolve(GroupLogDescriptor.PARTITION_DIR_PREFIX + p)
                    .resolve(GroupLogDescriptor.LOG_FILE_NAME)));
        }
        assertEquals(30, reload().size());
        assertEquals(0, GroupPartitioner.partitionFor(pickMinValueHash(), 50), "Integer.MIN_VALUE hash maps to 0");
    }

    /** A string whose hashCode is Integer.MIN_VALUE ("polygenelubricants" is the classic one). */
    private static String pickMinValueHash() {
        String s = "polygenelubricants";
        assertEquals(Integer.MIN_VALUE, s.hashCode());
        return s;
    }

    @Test
    void shouldAppendToExistingFileAfterReopen() throws IOException {
        try (FileGroupStore store = new FileGroupStore(dir, PARTITIONS)) {
            store.load();
            store.append("g", List.of(offset("g", 0, 1)));
        }
        try (FileGroupStore store = new FileGroupStore(dir, PARTITIONS)) {
            store.load();
            store.append("g", List.of(offset("g", 1, 1)));
        }
        assertEquals(2, reload().size());
        try (FileChannel ch = FileChannel.open(logOf("g"), StandardOpenOption.READ)) {
            assertEquals(2L * GroupRecordCodec.encodeFrame(List.of(offset("g", 0, 1))).remaining(), ch.size());
        }
    }
}
