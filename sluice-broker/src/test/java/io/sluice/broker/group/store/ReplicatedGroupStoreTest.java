package io.sluice.broker.group.store;

import static io.sluice.broker.group.store.StoreFixtures.group;
import static io.sluice.broker.group.store.StoreFixtures.metadata;
import static io.sluice.broker.group.store.StoreFixtures.offset;
import static io.sluice.broker.group.store.StoreFixtures.only;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.topic.Partition;
import io.sluice.log.checkpoint.CleanShutdownFile;
import io.sluice.log.segment.SegmentFileNames;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The group store on {@code __consumer_offsets} partition logs: atomic batches, replay on load, acks=all waits. */
class ReplicatedGroupStoreTest {
    private static final int PARTITIONS = 3;
    private static final long TIMEOUT_MS = 30_000;

    @TempDir
    Path dir;

    LocalOffsetsPartitions partitions;
    ScheduledThreadPoolExecutor timer;
    ReplicatedGroupStore store;

    @BeforeEach
    void open() throws IOException {
        partitions = new LocalOffsetsPartitions(dir, PARTITIONS, System::currentTimeMillis);
        timer = new ScheduledThreadPoolExecutor(1);
        store = partitions.store(timer, TIMEOUT_MS, GroupStoreMigration.none());
    }

    @AfterEach
    void close() throws IOException {
        timer.shutdownNow();
        partitions.close();
    }

    private static int partitionOf(String group) {
        return GroupPartitioner.partitionFor(group, PARTITIONS);
    }

    private List<GroupRecord> reload(String group) throws IOException {
        partitions.reopen();
        store = partitions.store(timer, TIMEOUT_MS, GroupStoreMigration.none());
        return store.load(partitionOf(group));
    }

    private void append(String group, GroupRecord... records) throws Exception {
        store.append(group, List.of(records)).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    private void loadAll() throws IOException {
        for (int p = 0; p < PARTITIONS; p++) {
            assertEquals(List.of(), store.load(p));
        }
    }

    @Test
    void shouldLoadTheLatestRecordPerKeyAfterRestart() throws Exception {
        loadAll();
        append("g", offset("g", 0, 1), offset("g", 1, 10));
        append("g", offset("g", 0, 2), group("g", 1));
        append("g", group("g", 2));
        List<GroupRecord> loaded = reload("g");
        assertEquals(3, loaded.size());
        assertEquals(offset("g", 0, 2), only(loaded, 0));
        assertEquals(offset("g", 1, 10), only(loaded, 1));
        GroupRecord.GroupMetadata g = metadata(loaded);
        assertEquals(2, g.generationId());
        assertEquals("instance-2", g.members().get(1).groupInstanceId());
        assertArrayEquals(new byte[] {4, 5, 6}, g.members().get(1).assignment());
    }

    @Test
    void shouldForgetTombstonedKeysOnLoad() throws Exception {
        loadAll();
        append("g", offset("g", 0, 1), offset("g", 1, 1), group("g", 1));
        append("g", new GroupRecord.OffsetTombstone("g", "topic", 0), new GroupRecord.GroupTombstone("g"));
        assertEquals(List.of(offset("g", 1, 1)), reload("g"));
    }

    @Test
    void shouldWriteEachAppendAsOneBatchStampedByTheLog() throws Exception {
        loadAll();
        Partition partition = partitions.get(partitionOf("g"));
        append("g", offset("g", 0, 1), offset("g", 1, 1), group("g", 1));
        append("g", offset("g", 0, 2));
        List<MutableRecordBatch> batches = batchesOf(partition);
        assertEquals(2, batches.size());
        assertEquals(
                List.of(0L, 3L),
                List.of(batches.get(0).baseOffset(), batches.get(1).baseOffset()));
        assertEquals(3, batches.get(0).countOrNull());
        assertEquals(partition.leaderEpoch(), batches.get(1).partitionLeaderEpoch());
        assertEquals(4, partition.highWatermark(), "the only in-sync replica holds both batches");
    }

    @Test
    void shouldReloadATornBatchAsNothingAtAll() throws Exception {
        loadAll();
        Partition partition = partitions.get(partitionOf("g"));
        append("g", offset("g", 0, 1));
        append("g", offset("g", 0, 2), offset("g", 1, 2), group("g", 1));
        Path partitionDir = partition.log().dir();
        partitions.close();
        Path segment = segmentOf(partitionDir);
        long full = Files.size(segment);
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            channel.truncate(full - 5);
        }
        Files.deleteIfExists(partitionDir.resolve(CleanShutdownFile.FILE_NAME));
        assertEquals(List.of(offset("g", 0, 1)), reload("g"), "a crash mid-batch loses the whole batch, never part");
    }

    @Test
    void shouldAdmitAppendsOnlyInTheLeadershipItLoaded() throws Exception {
        int p = partitionOf("g");
        assertEquals(
                Errors.NOT_LEADER_OR_FOLLOWER,
                assertThrows(GroupStoreException.class, () -> store.append("g", List.of(offset("g", 0, 1))))
                        .error(),
                "not loaded yet");
        store.load(p);
        append("g", offset("g", 0, 1));
        partitions.follow(p);
        assertEquals(
                Errors.NOT_LEADER_OR_FOLLOWER,
                assertThrows(GroupStoreException.class, () -> store.append("g", List.of(offset("g", 0, 2))))
                        .error(),
                "another broker leads it");
        assertEquals(
                Errors.NOT_LEADER_OR_FOLLOWER,
                assertThrows(GroupStoreException.class, () -> store.load(p)).error());
        partitions.lead(p);
        assertEquals(
                Errors.NOT_LEADER_OR_FOLLOWER,
                assertThrows(GroupStoreException.class, () -> store.append("g", List.of(offset("g", 0, 2))))
                        .error(),
                "led again, but not loaded again");
        assertEquals(List.of(offset("g", 0, 1)), store.load(p));
        append("g", offset("g", 0, 2));
        assertThrows(IllegalArgumentException.class, () -> store.append("g", List.of(offset("other", 0, 1))));
    }

    /** Group "g"'s partition, led with a follower in the ISR and loaded; returns the partition. */
    private int ledWithFollower() throws IOException {
        int p = partitionOf("g");
        partitions.leadWithFollower(p);
        store.load(p);
        return p;
    }

    @Test
    void shouldCompleteOnlyOnceEveryInSyncReplicaHoldsTheBatch() throws Exception {
        int p = ledWithFollower();
        CompletableFuture<Void> durable = store.append("g", List.of(offset("g", 0, 1)));
        assertFalse(durable.isDone(), "the follower has not fetched it");
        assertEquals(1, partitions.get(p).log().logEndOffset(), "the leader has it already");
        partitions.followerFetched(p);
        durable.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    @Test
    void shouldFailAsTimedOutWhenTheFollowerDoesNotCatchUp() throws Exception {
        store = partitions.store(timer, 50, GroupStoreMigration.none());
        ledWithFollower();
        assertEquals(Errors.REQUEST_TIMED_OUT, failureOf(store.append("g", List.of(offset("g", 0, 1)))));
    }

    @Test
    void shouldFailAsNotLeaderWhenLeadershipMovesBeforeTheFollowerHasTheBatch() throws Exception {
        int p = ledWithFollower();
        CompletableFuture<Void> durable = store.append("g", List.of(offset("g", 0, 1)));
        partitions.follow(p);
        assertEquals(Errors.NOT_LEADER_OR_FOLLOWER, failureOf(durable));
    }

    private static Errors failureOf(CompletableFuture<Void> durable) throws Exception {
        ExecutionException e =
                assertThrows(ExecutionException.class, () -> durable.get(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        return GroupStoreException.errorOf(e);
    }

    @Test
    void shouldReportUndecodableRecordsInAValidBatchAsTypedErrors() throws Exception {
        int p = partitionOf("g");
        store.load(p);
        append("g", offset("g", 0, 1));
        byte[] key = GroupRecordCodec.key(offset("g", 0, 1));
        appendRaw(
                p, new SimpleRecord(1L, Arrays.copyOf(key, key.length - 2), GroupRecordCodec.value(offset("g", 0, 2))));
        GroupStoreCorruptException truncated = assertThrows(GroupStoreCorruptException.class, () -> store.load(p));
        assertTrue(truncated.getMessage().contains("__consumer_offsets-" + p + " at offset 1"), truncated.getMessage());

        int q = (p + 1) % PARTITIONS;
        store.load(q);
        appendRaw(q, new SimpleRecord(1L, new byte[] {42, 1, 2}, new byte[] {7}));
        GroupStoreCorruptException garbage = assertThrows(GroupStoreCorruptException.class, () -> store.load(q));
        assertTrue(garbage.getMessage().contains("key type 42"), garbage.getMessage());
    }

    /** Any bytes handed to the replay end in records or the typed error: never another exception, a hang or OOM. */
    @Property(tries = 300)
    void shouldReplayGarbageIntoTypedErrorOnly(@ForAll @Size(max = 400) byte[] garbage) {
        replayOrTypedError(garbage);
    }

    @Property(tries = 100)
    void shouldReplayTruncatedOrFlippedBatchesIntoTypedErrorOnly(@ForAll @Size(min = 1, max = 3) List<Integer> cuts) {
        ByteBuffer batch = GroupRecordCodec.batch(List.of(group("g", 1), offset("g", 0, 1)), 1L);
        byte[] bytes = new byte[batch.remaining()];
        batch.get(bytes);
        for (int cut : cuts) {
            int at = Math.floorMod(cut, bytes.length);
            byte[] flipped = bytes.clone();
            flipped[at] ^= 0x20;
            replayOrTypedError(Arrays.copyOf(bytes, at));
            replayOrTypedError(flipped);
        }
    }

    private static void replayOrTypedError(byte[] bytes) {
        try {
            new GroupPartitionReader("__consumer_offsets-0", 0).apply(ByteBuffer.wrap(bytes));
        } catch (GroupStoreCorruptException expected) {
            // the only acceptable failure
        }
    }

    private void appendRaw(int partition, SimpleRecord record) throws Exception {
        Partition leading = partitions.get(partition);
        leading.log()
                .appendAsLeader(
                        MemoryRecords.withRecords(Compression.NONE, record).buffer(),
                        leading.leaderEpoch(),
                        System.currentTimeMillis());
    }

    private static List<MutableRecordBatch> batchesOf(Partition partition) throws IOException {
        List<MutableRecordBatch> batches = new ArrayList<>();
        MemoryRecords.readableRecords(ByteBuffer.wrap(
                        Files.readAllBytes(segmentOf(partition.log().dir()))))
                .batches()
                .forEach(batches::add);
        return batches;
    }

    private static Path segmentOf(Path partitionDir) throws IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(SegmentFileNames.LOG_SUFFIX))
                    .findFirst()
                    .orElseThrow();
        }
    }
}
