package io.sluice.broker.group.store;

import static io.sluice.broker.group.store.StoreFixtures.group;
import static io.sluice.broker.group.store.StoreFixtures.offset;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker upgraded from the per-broker group files: the first loads of the {@code __consumer_offsets} partitions
 * import the files' live records once, then the directory is moved aside.
 */
class GroupStoreMigrationTest {
    /** The old store was spread over another partition count than the topic has: records follow their group. */
    private static final int OLD_PARTITIONS = 3;

    private static final int PARTITIONS = 5;
    private static final List<String> GROUPS = List.of("a", "b", "c", "d", "e", "f", "g", "h");

    @TempDir
    Path dir;

    Path legacy;
    LocalOffsetsPartitions partitions;
    ScheduledThreadPoolExecutor timer;

    @BeforeEach
    void writeLegacyFiles() throws IOException {
        legacy = dir.resolve("meta").resolve("consumer-offsets");
        for (String g : GROUPS) {
            LegacyGroupFiles.append(legacy, OLD_PARTITIONS, List.of(offset(g, 0, 1), group(g, 1)));
            LegacyGroupFiles.append(legacy, OLD_PARTITIONS, List.of(offset(g, 0, 2), offset(g, 1, 7)));
        }
        LegacyGroupFiles.append(
                legacy,
                OLD_PARTITIONS,
                List.of(
                        new GroupRecord.GroupTombstone("h"),
                        new GroupRecord.OffsetTombstone("h", "topic", 0),
                        new GroupRecord.OffsetTombstone("h", "topic", 1)));
        partitions = new LocalOffsetsPartitions(dir.resolve("logs"), PARTITIONS, System::currentTimeMillis);
        timer = new ScheduledThreadPoolExecutor(1);
    }

    @AfterEach
    void close() throws IOException {
        timer.shutdownNow();
        partitions.close();
    }

    private ReplicatedGroupStore store() throws IOException {
        return partitions.store(timer, 30_000, GroupStoreMigration.of(legacy, PARTITIONS));
    }

    private static List<GroupRecord> loadAll(ReplicatedGroupStore store) throws IOException {
        List<GroupRecord> all = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            all.addAll(store.load(p));
        }
        return all;
    }

    private static List<GroupRecord> expected() {
        List<GroupRecord> records = new ArrayList<>();
        for (String g : GROUPS.subList(0, GROUPS.size() - 1)) {
            records.addAll(List.of(group(g, 1), offset(g, 0, 2), offset(g, 1, 7)));
        }
        return records;
    }

    /** Records as comparable text (group metadata carries byte arrays, which records compare by identity). */
    private static Set<String> described(List<GroupRecord> records) {
        Set<String> out = new HashSet<>();
        for (GroupRecord r : records) {
            assertTrue(out.add(describe(r)), "loaded twice: " + r);
        }
        return out;
    }

    private static String describe(GroupRecord r) {
        return r instanceof GroupRecord.GroupMetadata g
                ? "group " + g.groupId() + " generation " + g.generationId() + " members "
                        + g.members().stream().map(GroupRecord.Member::memberId).toList()
                : r.toString();
    }

    @Test
    void shouldImportOnceAndMoveTheFilesAside() throws IOException {
        assertEquals(described(expected()), described(loadAll(store())));
        assertFalse(Files.exists(legacy), "moved aside once every partition has its share");
        assertTrue(Files.isDirectory(legacy.resolveSibling("consumer-offsets.migrated")));

        partitions.reopen();
        List<GroupRecord> again = loadAll(store());
        assertEquals(expected().size(), again.size(), "nothing imported twice");
        assertEquals(described(expected()), described(again));
        long batches = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            batches += partitions.get(p).log().logEndOffset() > 0 ? 1 : 0;
        }
        assertTrue(batches > 1, "the records went to the partitions of their groups");
    }

    @Test
    void shouldLeavePartitionsThatAlreadyHoldRecordsAsTheyAre() throws Exception {
        int p = GroupPartitioner.partitionFor("a", PARTITIONS);
        ReplicatedGroupStore fresh = partitions.store(timer, 30_000, GroupStoreMigration.none());
        fresh.load(p);
        fresh.append("a", List.of(offset("a", 0, 99))).get(30, TimeUnit.SECONDS);

        Set<String> loaded = described(loadAll(store()));
        assertTrue(loaded.contains(offset("a", 0, 99).toString()));
        assertFalse(loaded.contains(describe(group("a", 1))), "the partition had records of its own: none imported");
        for (String g : GROUPS.subList(0, GROUPS.size() - 1)) {
            if (GroupPartitioner.partitionFor(g, PARTITIONS) != p) {
                assertTrue(loaded.contains(describe(group(g, 1))), "group " + g + " of another partition is imported");
            }
        }
        assertFalse(Files.exists(legacy));
    }

    @Test
    void shouldKeepTheFilesUntilEveryPartitionWithRecordsWasLoaded() throws IOException {
        int last = GroupPartitioner.partitionFor("a", PARTITIONS);
        ReplicatedGroupStore store = store();
        for (int p = 0; p < PARTITIONS; p++) {
            if (p != last) {
                store.load(p);
            }
        }
        assertTrue(Files.isDirectory(legacy), "partition " + last + " is led elsewhere so far");
        store.load(last);
        assertFalse(Files.exists(legacy));
    }

    @Test
    void shouldMoveAsideFilesWithNothingLive() throws IOException {
        Path empty = dir.resolve("empty").resolve("consumer-offsets");
        LegacyGroupFiles.append(empty, OLD_PARTITIONS, List.of(offset("x", 0, 1)));
        LegacyGroupFiles.append(empty, OLD_PARTITIONS, List.of(new GroupRecord.OffsetTombstone("x", "topic", 0)));
        assertFalse(GroupStoreMigration.of(empty, PARTITIONS).hasPending());
        assertFalse(Files.exists(empty));
        assertTrue(Files.isDirectory(empty.resolveSibling("consumer-offsets.migrated")));
    }
}
