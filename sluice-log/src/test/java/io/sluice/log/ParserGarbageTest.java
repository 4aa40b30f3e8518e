package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import io.sluice.log.checkpoint.CleanShutdownFile;
import io.sluice.log.checkpoint.CorruptCheckpointException;
import io.sluice.log.checkpoint.OffsetCheckpointFile;
import io.sluice.log.index.CorruptIndexException;
import io.sluice.log.index.OffsetIndex;
import io.sluice.log.index.TimeIndex;
import io.sluice.log.producer.CorruptSnapshotException;
import io.sluice.log.producer.ProducerEntry;
import io.sluice.log.producer.ProducerSnapshotDescriptor;
import io.sluice.log.producer.ProducerSnapshotFile;
import io.sluice.log.producer.ProducerStateManager;
import io.sluice.log.segment.BatchScanner;
import io.sluice.log.segment.LogSegment;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.lifecycle.AfterTry;
import net.jqwik.api.lifecycle.BeforeTry;

/** Every file read at recovery, fed garbage: a typed error or a rebuild, never an OOM, a hang or a crash. */
class ParserGarbageTest {
    private Path dir;

    @BeforeTry
    void createDir() throws IOException {
        dir = Files.createTempDirectory("sluice-garbage");
    }

    @AfterTry
    void deleteDir() throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Property(tries = 150)
    void shouldLoadOrRejectGarbageOffsetIndexes(
            @ForAll @Size(max = 300) byte[] bytes, @ForAll @IntRange(min = 1, max = 5000) int segmentSize)
            throws IOException {
        Path file = dir.resolve("00000000000000000000.index");
        Files.write(file, bytes);
        try {
            OffsetIndex index = OffsetIndex.load(file, 0, 1024, segmentSize);
            for (long target : new long[] {0, 1, 100, Integer.MAX_VALUE, Long.MAX_VALUE / 2}) {
                int position = index.lookup(target);
                assertTrue(position >= 0 && position < segmentSize, "position " + position);
            }
        } catch (CorruptIndexException expected) {
            assertTrue(expected.getMessage().startsWith("00000000000000000000.index: "));
        }
    }

    @Property(tries = 150)
    void shouldLoadOrRejectGarbageTimeIndexes(
            @ForAll @Size(max = 300) byte[] bytes, @ForAll @IntRange(min = 1, max = 5000) int nextOffset)
            throws IOException {
        Path file = dir.resolve("00000000000000000000.timeindex");
        Files.write(file, bytes);
        try {
            TimeIndex index = TimeIndex.load(file, 0, 1024, nextOffset);
            long offset = index.lookup(Long.MAX_VALUE);
            assertTrue(offset >= 0 && offset < nextOffset);
        } catch (CorruptIndexException expected) {
            assertNotNull(expected.getMessage());
        }
    }

    @Property(tries = 50)
    void shouldRejectForgedHugeIndexFilesWithoutReadingThem(@ForAll @IntRange(min = 2048, max = 1 << 30) int forgedSize)
            throws IOException {
        Path file = dir.resolve("00000000000000000000.index");
        try (FileChannel channel = FileChannel.open(
                file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            channel.write(ByteBuffer.allocate(1), forgedSize - 1L);
        }
        assertThrows(CorruptIndexException.class, () -> OffsetIndex.load(file, 0, 1024, 10));
        assertThrows(CorruptIndexException.class, () -> TimeIndex.load(file, 0, 1024, 10));
    }

    @Property(tries = 150)
    void shouldParseOrRejectGarbageCheckpoints(@ForAll @StringLength(max = 200) String text) throws IOException {
        Path file = dir.resolve(OffsetCheckpointFile.RECOVERY_POINT_FILE);
        Files.writeString(file, text);
        try {
            Map<TopicPartitionKey, Long> offsets = OffsetCheckpointFile.read(file);
            offsets.values().forEach(v -> assertTrue(v >= 0));
        } catch (CorruptCheckpointException expected) {
            assertTrue(expected.getMessage().contains("line"));
        }
    }

    @Property(tries = 100)
    void shouldParseOrRejectNearlyValidCheckpoints(
            @ForAll @IntRange(min = -3, max = 3) int countSkew,
            @ForAll @StringLength(min = 1, max = 20) String topic,
            @ForAll long offset)
            throws IOException {
        Path file = dir.resolve(OffsetCheckpointFile.RECOVERY_POINT_FILE);
        Files.writeString(file, "0\n" + (2 + countSkew) + "\n" + topic + " 0 " + offset + "\nother 1 5\n");
        try {
            Map<TopicPartitionKey, Long> offsets = OffsetCheckpointFile.read(file);
            assertEquals(2, offsets.size());
        } catch (CorruptCheckpointException expected) {
            assertNotNull(expected.getMessage());
        }
    }

    @Property(tries = 50)
    void shouldRoundTripCheckpoints(
            @ForAll @StringLength(min = 1, max = 30) String rawTopic,
            @ForAll @IntRange(min = 0, max = 10_000) int partition,
            @ForAll @IntRange(min = 0) int offset)
            throws IOException {
        String topic = rawTopic.replaceAll("[^A-Za-z0-9._-]", "x");
        Path file = dir.resolve(OffsetCheckpointFile.LOG_START_OFFSET_FILE);
        Map<TopicPartitionKey, Long> offsets =
                Map.of(new TopicPartitionKey(topic, partition), (long) offset, new TopicPartitionKey("other", 1), 7L);
        new OffsetCheckpointFile(file).write(() -> offsets);
        assertEquals(offsets, OffsetCheckpointFile.read(file));
    }

    @Property(tries = 150)
    void shouldRejectGarbageProducerSnapshots(@ForAll @Size(max = 400) byte[] bytes) throws IOException {
        Path file = dir.resolve("00000000000000000007.snapshot");
        Files.write(file, bytes);
        assertThrows(CorruptSnapshotException.class, () -> ProducerSnapshotFile.read(file));
    }

    @Property(tries = 100)
    void shouldRejectSnapshotsWithAForgedProducerCountEvenWithAValidCrc(@ForAll int forgedCount) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(ProducerSnapshotDescriptor.HEADER_LENGTH + 3);
        buffer.putShort(ProducerSnapshotDescriptor.VERSION_OFFSET, ProducerSnapshotDescriptor.VERSION);
        buffer.putInt(ProducerSnapshotDescriptor.PRODUCER_COUNT_OFFSET, forgedCount);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(
                buffer.array(),
                ProducerSnapshotDescriptor.PRODUCER_COUNT_OFFSET,
                buffer.capacity() - ProducerSnapshotDescriptor.PRODUCER_COUNT_OFFSET);
        buffer.putInt(ProducerSnapshotDescriptor.CRC_OFFSET, (int) crc.getValue());
        Path file = dir.resolve("00000000000000000007.snapshot");
        Files.write(file, buffer.array());
        assertThrows(CorruptSnapshotException.class, () -> ProducerSnapshotFile.read(file));
    }

    @Property(tries = 25)
    void shouldRoundTripProducerSnapshots(
            @ForAll @IntRange(min = 0, max = 20) int producers, @ForAll @IntRange(min = 0, max = 9) int batchesEach)
            throws Exception {
        Path logDir = dir.resolve("snap-0");
        PartitionLog log = PartitionLog.open(logDir, LogConfig.defaults(), new RecoveryReport());
        try {
            for (int b = 0; b < batchesEach; b++) {
                for (int p = 0; p < producers; p++) {
                    log.appendAsLeader(TestBatches.idempotent(p, (short) 1, b * 2, 2), 0, 5_000);
                }
            }
        } finally {
            log.close();
        }
        Path snapshot;
        try (Stream<Path> files = Files.list(logDir)) {
            snapshot = files.filter(p -> p.toString().endsWith(".snapshot"))
                    .findFirst()
                    .orElseThrow();
        }
        List<ProducerEntry> entries = ProducerSnapshotFile.read(snapshot);
        assertEquals(batchesEach == 0 ? 0 : producers, entries.size());
        for (ProducerEntry entry : entries) {
            assertEquals(Math.min(batchesEach, ProducerStateManager.BATCHES_RETAINED), entry.batchCount());
            assertEquals(batchesEach * 2 - 1, entry.lastSeq());
        }
    }

    @Property(tries = 100)
    void shouldReadOrRejectGarbageCleanShutdownMarkers(@ForAll @Size(max = 200) byte[] bytes) throws IOException {
        Files.write(dir.resolve(CleanShutdownFile.FILE_NAME), bytes);
        try {
            CleanShutdownFile.Offsets offsets = CleanShutdownFile.read(dir);
            assertTrue(offsets.recoveryPoint() >= 0 && offsets.logStartOffset() >= 0);
        } catch (CorruptCheckpointException expected) {
            assertNotNull(expected.getMessage());
        }
    }

    @Property(tries = 100)
    void shouldRecoverTheValidPrefixOfASegmentFollowedByGarbage(
            @ForAll @IntRange(min = 0, max = 6) int batches, @ForAll @Size(max = 600) byte[] garbage)
            throws IOException {
        Path logDir = dir.resolve("seg-0");
        Files.createDirectories(logDir);
        LogSegment segment = LogSegment.create(logDir, 0, 64, 1024, 0);
        RecordBatchView view = new RecordBatchView();
        long validBytes = 0;
        for (int i = 0; i < batches; i++) {
            ByteBuffer batch = TestBatches.batch(1_000 + i, "r" + i, "s" + i);
            view.wrap(batch, 0).baseOffset(2L * i);
            segment.append(batch, view);
            validBytes += batch.remaining();
        }
        segment.close();
        Files.write(logDir.resolve("00000000000000000000.log"), garbage, StandardOpenOption.APPEND);
        LogSegment reopened = LogSegment.openExisting(logDir, 0, 64, 1024);
        LogSegment.ScanOutcome outcome = reopened.recover(new BatchScanner(), true);
        assertTrue(outcome.validBytes() >= validBytes, "valid " + outcome.validBytes() + " < " + validBytes);
        if (outcome.validBytes() == validBytes) {
            assertEquals(2L * batches, reopened.nextOffset());
        }
        assertEquals(outcome.validBytes(), Files.size(logDir.resolve("00000000000000000000.log")));
        reopened.closeAndDelete();
    }

    @Property(tries = 100)
    void shouldNotAllocateForAForgedBatchLength(
            @ForAll @IntRange(min = 62, max = Integer.MAX_VALUE - 100) int forgedLength) throws IOException {
        Path file = dir.resolve("forged.log");
        ByteBuffer header = TestBatches.batch(1, "x");
        header.putInt(io.sluice.record.batch.RecordBatchDescriptor.BATCH_LENGTH_OFFSET, forgedLength);
        Files.write(file, java.util.Arrays.copyOf(header.array(), header.remaining()));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            BatchScanner scanner = new BatchScanner();
            assertNull(scanner.readHeader(channel, 0, channel.size()));
            assertTrue(scanner.problem().contains("batchLength " + forgedLength), scanner.problem());
        }
    }

    @Property(tries = 100)
    void shouldTreatTextGarbageAsUnparseableNotAsOffsets(@ForAll @StringLength(max = 60) String text)
            throws IOException {
        Files.write(dir.resolve(CleanShutdownFile.FILE_NAME), text.getBytes(StandardCharsets.UTF_8));
        try {
            CleanShutdownFile.read(dir);
        } catch (CorruptCheckpointException expected) {
            assertNotNull(expected.getMessage());
        }
    }
}
