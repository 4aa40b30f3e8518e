package io.sluice.broker.move;

import static io.sluice.broker.move.MoveFixtures.CHUNK_BYTES;
import static io.sluice.broker.move.MoveFixtures.LEADER_EPOCH;
import static io.sluice.broker.move.MoveFixtures.PARTITION;
import static io.sluice.broker.move.MoveFixtures.START_MS;
import static io.sluice.broker.move.MoveFixtures.TOPIC;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.move.MoveFixtures.SimulatedCrash;
import io.sluice.broker.move.MoveFixtures.Source;
import io.sluice.log.PartitionLog;
import io.sluice.testkit.Poll;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Broken connections, restarts, a lost source, corruption, cancel and retention during a transfer. */
class MoveFaultTest extends MoveTestBase {
    private static final long FAR_FUTURE_MS = START_MS + 365L * 24 * 3600 * 1000;

    private static MoveTransferClient client(ChunkFaultHook hook) {
        MoveTransferClient client = new MoveTransferClient(MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED);
        client.faults(hook);
        return client;
    }

    /** Corrupts the first byte of a run in flight. */
    private static void flipByte(ByteBuffer inFlight) {
        int at = inFlight.position();
        inFlight.put(at, (byte) ~inFlight.get(at));
    }

    private static void flipByte(FileChannel file, long position) throws java.io.IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        file.read(one, position);
        one.put(0, (byte) ~one.get(0)).position(0);
        file.write(one, position);
    }

    @Test
    void shouldResumeFromLastVerifiedChunkAfterBrokenConnection() throws Exception {
        PartitionLog source = source("source");
        Source server = server(source);
        CuttingProxy proxy = closing(new CuttingProxy(server.address()));
        proxy.cutAfter(10L * CHUNK_BYTES + 1_000);
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();

        client(ChunkFaultHook.NONE)
                .bootstrap(target, TOPIC, PARTITION, List.of(proxy.address()), LEADER_EPOCH, progress);

        assertEquals(boundaryOf(source), target.logEndOffset());
        MoveFixtures.assertSegmentsIdentical(source, target, boundaryOf(source));
        assertEquals(1, progress.sourceSwitches(), "one reconnect: " + progress);
        assertTrue(progress.bytesResent() <= CHUNK_BYTES, "re-sent at most one chunk: " + progress);
        assertTrue(progress.bytesShipped() <= progress.totalBytes() + CHUNK_BYTES, progress.toString());
        assertEquals(0, server.source.activeTransfers());
    }

    @Test
    void shouldResumeFromStagingAfterTargetAndSourceRestart() throws Exception {
        PartitionLog source = source("source");
        Source first = Source.start(source);
        PartitionLog target = MoveFixtures.openLog(targetDir());
        TransferProgress before = new TransferProgress();
        ChunkFaultHook crashAtChunk12 = ChunkFaultHook.afterLanding((file, position, length, chunk) -> {
            if (chunk == 12) {
                throw new SimulatedCrash();
            }
        });
        assertThrows(
                SimulatedCrash.class,
                () -> client(crashAtChunk12)
                        .bootstrap(target, TOPIC, PARTITION, List.of(first.address()), LEADER_EPOCH, before));
        first.close();
        target.close();
        assertTrue(Files.exists(targetDir().resolve(StagingArea.DIR_NAME).resolve(StagingArea.MANIFEST_FILE)));
        assertTrue(before.bytesVerified() >= 11L * CHUNK_BYTES, before.toString());

        Source restarted = server(source);
        PartitionLog reopened = emptyTarget();
        assertEquals(0, reopened.logEndOffset(), "staging is not part of the log");
        TransferProgress after = new TransferProgress();
        client(ChunkFaultHook.NONE)
                .bootstrap(reopened, TOPIC, PARTITION, List.of(restarted.address()), LEADER_EPOCH, after);

        assertEquals(boundaryOf(source), reopened.logEndOffset());
        MoveFixtures.assertSegmentsIdentical(source, reopened, boundaryOf(source));
        assertTrue(
                after.bytesShipped() <= after.totalBytes() - 10L * CHUNK_BYTES,
                "resumed, not from zero: " + after + " after " + before);
    }

    @Test
    void shouldResendACorruptChunkAndResumeAfterACrashWithFilesInBothLanes() throws Exception {
        PartitionLog source = source("source");
        Source first = Source.start(source);
        PartitionLog target = MoveFixtures.openLog(targetDir());
        TransferProgress before = new TransferProgress();
        AtomicInteger corrupted = new AtomicInteger();
        ChunkFaultHook corruptChunk5CrashAtChunk12 = new ChunkFaultHook() {
            @Override
            public void inFlight(ByteBuffer bytes, long position, long chunk) {
                if (chunk == 5 && corrupted.getAndIncrement() == 0) {
                    flipByte(bytes);
                }
            }

            @Override
            public void afterChunkLanded(FileChannel file, long position, int length, long chunk) {
                if (chunk == 12) {
                    throw new SimulatedCrash();
                }
            }
        };
        MoveTransferClient crashing = MoveFixtures.twoLaneClient(corruptChunk5CrashAtChunk12);
        assertThrows(
                SimulatedCrash.class,
                () -> crashing.bootstrap(target, TOPIC, PARTITION, List.of(first.address()), LEADER_EPOCH, before));
        assertEquals(1, before.chunksRejected(), before.toString());
        assertTrue(crashing.schedule().filesTaken(ChunkSchedule.Lane.PAGE_CACHE) > 0, "the page cache took files");
        assertTrue(crashing.schedule().filesTaken(ChunkSchedule.Lane.DISK) > 0, "the disk took files");
        first.close();
        target.close();

        Source restarted = server(source);
        PartitionLog reopened = emptyTarget();
        TransferProgress after = new TransferProgress();
        MoveFixtures.twoLaneClient(ChunkFaultHook.NONE)
                .bootstrap(reopened, TOPIC, PARTITION, List.of(restarted.address()), LEADER_EPOCH, after);

        assertEquals(boundaryOf(source), reopened.logEndOffset());
        MoveFixtures.assertSegmentsIdentical(source, reopened, boundaryOf(source));
        assertEquals(source.producerCount(), reopened.producerCount());
        assertTrue(
                after.bytesShipped() <= after.totalBytes() - 10L * CHUNK_BYTES,
                "resumed, not from zero: " + after + " after " + before);
    }

    /**
     * The target dies during the install, right after the first segment's {@code .log} was renamed into the partition
     * directory: the reopened log is empty again with every file back in staging, and the next bootstrap installs
     * them all, leader epochs and producer state included, without shipping a byte again.
     */
    @Test
    void shouldInstallAllOrNothingAcrossACrashBetweenTwoRenames() throws Exception {
        PartitionLog source = source("source");
        Source server = server(source);
        PartitionLog target = MoveFixtures.openLog(targetDir());
        ChunkFaultHook crashAfterTheFirstLog = new ChunkFaultHook() {
            @Override
            public void movedIn(java.nio.file.Path file) {
                if (file.getFileName().toString().endsWith(".log")) {
                    throw new SimulatedCrash();
                }
            }
        };
        assertThrows(
                SimulatedCrash.class,
                () -> client(crashAfterTheFirstLog)
                        .bootstrap(
                                target,
                                TOPIC,
                                PARTITION,
                                List.of(server.address()),
                                LEADER_EPOCH,
                                new TransferProgress()));
        // the process dies here: the target log is never closed

        PartitionLog reopened = emptyTarget();
        assertEquals(0, reopened.logEndOffset(), "the open rolled the unfinished install back");
        TransferProgress after = new TransferProgress();
        client(ChunkFaultHook.NONE)
                .bootstrap(reopened, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, after);

        assertEquals(boundaryOf(source), reopened.logEndOffset());
        MoveFixtures.assertSegmentsIdentical(source, reopened, boundaryOf(source));
        assertEquals(source.leaderEpochs(), reopened.leaderEpochs());
        assertEquals(source.producerCount(), reopened.producerCount());
        assertEquals(0, after.bytesShipped(), "every file was back in staging, verified: " + after);
        assertFalse(Files.exists(targetDir().resolve(StagingArea.DIR_NAME)));
        assertEquals(0, server.source.activeTransfers());
    }

    @Test
    void shouldContinueFromSecondSourceWhenFirstIsGone() throws Exception {
        PartitionLog firstLog = source("first");
        PartitionLog secondLog = source("second");
        Source first = Source.start(firstLog);
        Source second = server(secondLog);
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        ChunkFaultHook killFirstAtChunk8 = ChunkFaultHook.afterLanding((file, position, length, chunk) -> {
            if (chunk == 8) {
                first.close();
            }
        });

        client(killFirstAtChunk8)
                .bootstrap(
                        target, TOPIC, PARTITION, List.of(first.address(), second.address()), LEADER_EPOCH, progress);

        assertEquals(second.address(), progress.source());
        assertEquals(boundaryOf(secondLog), target.logEndOffset());
        MoveFixtures.assertSegmentsIdentical(secondLog, target, boundaryOf(secondLog));
        assertEquals(0, progress.bytesResent(), "the chunk in hand was verified before the source went: " + progress);
        assertEquals(progress.totalBytes(), progress.bytesShipped());
    }

    /**
     * The first source pins the files and its connection breaks before a chunk is verified, so the second delivers
     * them all. Once the files are in, the first source (still up) is told too: its pins go now, not after
     * {@code sluice.move.pin.timeout.ms} (the sources' clocks stand still here, so they would never expire).
     */
    @Test
    void shouldReleaseThePinsOfASourceFailedOverFromOnceTheFilesAreIn() throws Exception {
        Source first = server(source("first"));
        PartitionLog secondLog = source("second");
        Source second = server(secondLog);
        CuttingProxy toFirst = closing(new CuttingProxy(first.address()));
        toFirst.cutAfter(2_000); // past the open's answer, short of the first chunk's end
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();

        client(ChunkFaultHook.NONE)
                .bootstrap(
                        target, TOPIC, PARTITION, List.of(toFirst.address(), second.address()), LEADER_EPOCH, progress);

        assertEquals(second.address(), progress.source());
        assertEquals(1, progress.sourceSwitches(), progress.toString());
        MoveFixtures.assertSegmentsIdentical(secondLog, target, boundaryOf(secondLog));
        assertEquals(0, second.source.activeTransfers(), "the source that finished was told");
        Poll.until(
                "the source failed over from told as well (from a thread of its own)",
                Duration.ofSeconds(30),
                first.source::activeTransfers,
                active -> active == 0);
    }

    @Test
    void shouldAskTheNextSourceForWholeChunksAfterTheLastOneCutThemShort() throws Exception {
        PartitionLog firstLog = source("first");
        Source first = closing(new Source(
                firstLog, MoveFixtures.moveConfig().withChunkBytes(CHUNK_BYTES / 4), new AtomicLong(START_MS)));
        PartitionLog secondLog = source("second");
        Source second = server(secondLog);
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        ChunkFaultHook firstGoesBad = new ChunkFaultHook() {
            @Override
            public void inFlight(ByteBuffer bytes, long position, long chunk) {
                // two of the first source's short chunks land, then every one it sends fails its checksum until the
                // target gives up on it
                if (chunk >= 2 && first.address().equals(progress.source())) {
                    flipByte(bytes);
                }
            }
        };

        client(firstGoesBad)
                .bootstrap(
                        target, TOPIC, PARTITION, List.of(first.address(), second.address()), LEADER_EPOCH, progress);

        assertEquals(second.address(), progress.source());
        MoveFixtures.assertSegmentsIdentical(secondLog, target, boundaryOf(secondLog));
        long wholeChunks = 0;
        try (java.util.stream.Stream<java.nio.file.Path> files = Files.list(target.dir())) {
            for (java.nio.file.Path file :
                    files.filter(f -> f.toString().endsWith(".log")).toList()) {
                wholeChunks += (Files.size(file) + CHUNK_BYTES - 1) / CHUNK_BYTES;
            }
        }
        assertTrue(
                progress.chunksVerified() < 2 * wholeChunks,
                "the second source was asked for whole chunks, not the first one's quarters (" + wholeChunks
                        + " whole chunks): " + progress);
    }

    @Test
    void shouldRejectAndResendCorruptedChunkAndNeverInstallIt() throws Exception {
        PartitionLog source = source("source");
        Source server = server(source);
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        AtomicInteger rejectedLength = new AtomicInteger();
        ChunkFaultHook corruptChunk5 = new ChunkFaultHook() {
            @Override
            public void inFlight(ByteBuffer bytes, long position, long chunk) {
                if (chunk == 5 && rejectedLength.get() == 0) {
                    flipByte(bytes);
                }
            }

            @Override
            public void afterChunkLanded(FileChannel file, long position, int length, long chunk) {
                if (chunk == 5) {
                    rejectedLength.set(length);
                }
            }
        };

        client(corruptChunk5).bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress);

        assertEquals(1, progress.chunksRejected());
        assertEquals(rejectedLength.get(), progress.bytesResent(), "exactly the bad chunk again: " + progress);
        MoveFixtures.assertSegmentsIdentical(source, target, boundaryOf(source));
    }

    @Test
    void shouldFailWithoutInstallingWhenEveryCopyOfAChunkIsCorrupt() throws Exception {
        PartitionLog source = source("source");
        Source server = server(source);
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        ChunkFaultHook corruptFromChunk5 = new ChunkFaultHook() {
            @Override
            public void inFlight(ByteBuffer bytes, long position, long chunk) {
                if (chunk >= 5) {
                    flipByte(bytes);
                }
            }
        };

        MoveException failure = assertThrows(
                MoveException.class,
                () -> client(corruptFromChunk5)
                        .bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress));

        assertEquals(Errors.CORRUPT_MESSAGE, failure.error());
        assertEquals(TransferPhase.FAILED, progress.phase());
        assertEquals(0, target.logEndOffset());
        assertEquals(1, target.segmentCount());
        assertEquals(0, target.sizeInBytes());
        assertFalse(Files.exists(targetDir().resolve(StagingArea.DIR_NAME)));
        assertEquals(0, server.source.activeTransfers(), "the source was told to release its pins");
    }

    @Test
    void shouldFailOverWhenSourceFileIsCorruptOnDisk() throws Exception {
        PartitionLog badLog = source("bad");
        PartitionLog goodLog = source("good");
        long[] bases = badLog.segmentBaseOffsets();
        try (FileChannel segment = FileChannel.open(
                badLog.dir().resolve(String.format(Locale.ROOT, "%020d.log", bases[3])),
                java.nio.file.StandardOpenOption.READ,
                java.nio.file.StandardOpenOption.WRITE)) {
            flipByte(segment, 200);
        }
        Source bad = server(badLog);
        Source good = server(goodLog);
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();

        client(ChunkFaultHook.NONE)
                .bootstrap(target, TOPIC, PARTITION, List.of(bad.address(), good.address()), LEADER_EPOCH, progress);

        assertEquals(good.address(), progress.source());
        MoveFixtures.assertSegmentsIdentical(goodLog, target, boundaryOf(goodLog));
    }

    @Test
    void shouldCancelLeavingNoStagingAndAnEmptyUsableLog() throws Exception {
        PartitionLog source = source("source");
        Source server = server(source);
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        MoveTransferClient client = new MoveTransferClient(MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED);
        client.faults(ChunkFaultHook.afterLanding((file, position, length, chunk) -> {
            if (chunk == 6) {
                client.cancel();
            }
        }));

        MoveException cancelled = assertThrows(
                MoveException.class,
                () -> client.bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress));

        assertEquals(Errors.REASSIGNMENT_IN_PROGRESS, cancelled.error());
        assertEquals(TransferPhase.CANCELLED, progress.phase());
        // a cancel does not wait for the disk: staging goes as soon as a segment's finish in progress returns
        Poll.until(
                "staging removed",
                Duration.ofSeconds(30),
                () -> Files.exists(targetDir().resolve(StagingArea.DIR_NAME)),
                exists -> !exists);
        assertEquals(0, target.logEndOffset());
        assertEquals(0, server.source.activeTransfers(), "pins released at once");
        target.appendAsLeader(MoveFixtures.batch(Compression.NONE, START_MS, 3, 10), 0, START_MS);
        assertEquals(3, target.logEndOffset());
    }

    /**
     * The replica is removed while its transfer starts: the log is closed and its directory renamed for deletion, as
     * the log manager does, after the transfer checked for a cancel. The transfer must not create the partition's
     * directory again for its staging: an empty directory under the partition's name would be loaded as a log at the
     * next start. It fails instead, asking no source for anything.
     */
    @Test
    void shouldNotCreateTheDirectoryOfAReplicaRemovedAsItsTransferStarts() throws Exception {
        Source server = server(source("source"));
        PartitionLog target = MoveFixtures.openLog(targetDir());
        target.close();
        Files.move(targetDir(), targetDir().resolveSibling(targetDir().getFileName() + ".0-delete"));
        TransferProgress progress = new TransferProgress();

        assertThrows(
                MoveException.class,
                () -> client(ChunkFaultHook.NONE)
                        .bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress));

        assertFalse(Files.exists(targetDir()), "the removed replica's directory was created again");
        assertEquals(TransferPhase.FAILED, progress.phase());
        assertEquals(0, progress.bytesShipped(), progress.toString());
        assertEquals(0, server.source.activeTransfers());
    }

    /**
     * The first source pins the files and its connection breaks before a chunk is verified, so the transfer goes on
     * from the second; there every staged write fails, as on a full or broken disk. Another source cannot help: the
     * move fails at once with a storage error, removes its staging and releases its pins at both sources.
     */
    @ParameterizedTest(name = "the write throws {0}")
    @ValueSource(strings = {"IOException", "IllegalStateException"})
    void shouldFailAtOnceAsAStorageErrorWhenAStagedWriteFails(String thrown) throws Exception {
        Source first = server(source("first"));
        Source second = server(source("second"));
        CuttingProxy toFirst = closing(new CuttingProxy(first.address()));
        toFirst.cutAfter(2_000); // past the open's answer, short of the first chunk's end
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        AtomicInteger firstPinsAtFailure = new AtomicInteger(-1);
        ChunkFaultHook diskFails = new ChunkFaultHook() {
            @Override
            public void beforeWrite(java.nio.file.Path file, long position) throws java.io.IOException {
                firstPinsAtFailure.compareAndSet(-1, first.source.activeTransfers());
                if (thrown.equals("IOException")) {
                    throw new java.io.IOException("No space left on device");
                }
                throw new IllegalStateException("the disk's driver gave up");
            }
        };

        MoveException failure = assertThrows(
                MoveException.class,
                () -> client(diskFails)
                        .bootstrap(
                                target,
                                TOPIC,
                                PARTITION,
                                List.of(toFirst.address(), second.address()),
                                LEADER_EPOCH,
                                progress));

        assertEquals(Errors.KAFKA_STORAGE_ERROR, failure.error(), failure.toString());
        assertEquals(1, firstPinsAtFailure.get(), "the first source pinned the files before the second was asked");
        assertEquals(second.address(), progress.source());
        assertEquals(1, progress.sourceSwitches(), "no source was asked after the write failed: " + progress);
        assertEquals(TransferPhase.FAILED, progress.phase());
        assertFalse(Files.exists(targetDir().resolve(StagingArea.DIR_NAME)));
        assertEquals(0, first.source.activeTransfers(), "the first source was told to release its pins");
        assertEquals(0, second.source.activeTransfers(), "the second source was told to release its pins");
        assertEquals(0, target.logEndOffset());
    }

    /**
     * Removing the staging of a cancelled transfer fails (a directory that cannot be emptied): the pins are released
     * all the same, the progress says cancelled, and the failure travels with the exception.
     */
    @Test
    void shouldReleasePinsAndEndTheProgressWhenRemovingStagingFails() throws Exception {
        Source server = server(source("source"));
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        MoveTransferClient client = new MoveTransferClient(MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED);
        client.faults(new ChunkFaultHook() {
            @Override
            public void afterChunkLanded(FileChannel file, long position, int length, long chunk) {
                if (chunk == 0) { // no segment is complete: no finish runs, the removal is tried before the throw
                    client.cancel();
                }
            }

            @Override
            public void beforeStagingRemoved(java.nio.file.Path dir) throws java.io.IOException {
                throw new java.nio.file.DirectoryNotEmptyException(dir.toString());
            }
        });

        MoveException cancelled = assertThrows(
                MoveException.class,
                () -> client.bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress));

        assertEquals(Errors.REASSIGNMENT_IN_PROGRESS, cancelled.error());
        assertEquals(TransferPhase.CANCELLED, progress.phase());
        assertEquals(0, server.source.activeTransfers(), "pins released although the staging stayed");
        assertEquals(1, cancelled.getSuppressed().length, java.util.Arrays.toString(cancelled.getSuppressed()));
        assertTrue(cancelled.getSuppressed()[0] instanceof java.nio.file.DirectoryNotEmptyException);
    }

    /**
     * Two lanes ask for the partition's last files while the disk lane is still at its first ones: the pins must
     * follow what was answered, not the file asked for last.
     */
    @ParameterizedTest(name = "two lanes: {0}")
    @ValueSource(booleans = {false, true})
    void shouldKeepPinnedSegmentsThroughRetentionAndReleaseThemAfter(boolean twoLanes) throws Exception {
        PartitionLog source = source("source");
        long boundary = boundaryOf(source);
        Map<Long, byte[]> shipped = new HashMap<>();
        for (long base : source.segmentBaseOffsets()) {
            if (base < boundary) {
                shipped.put(
                        base, Files.readAllBytes(source.dir().resolve(String.format(Locale.ROOT, "%020d.log", base))));
            }
        }
        source.updateConfig(source.config().toBuilder().retentionMs(1).build());
        Source server = server(source);
        PartitionLog target = emptyTarget();
        AtomicLong lowestKept = new AtomicLong(-1);
        ChunkFaultHook retentionAtChunk15 = ChunkFaultHook.afterLanding((file, position, length, chunk) -> {
            if (chunk == 15) {
                source.enforceRetention(FAR_FUTURE_MS);
                source.deleteRecordsBefore(boundary);
                lowestKept.set(source.segmentBaseOffsets()[0]);
            }
        });

        TransferProgress progress = new TransferProgress();
        (twoLanes ? MoveFixtures.twoLaneClient(retentionAtChunk15) : client(retentionAtChunk15))
                .bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress);

        assertEquals(0, progress.bytesResent(), "no file was asked for again: " + progress);
        if (!twoLanes) {
            assertTrue(lowestKept.get() > 0, "segments already shipped could go");
        }
        assertTrue(lowestKept.get() < boundary, "the pinned ones stayed: lowest kept " + lowestKept.get());
        assertEquals(shipped.size() + 1, target.segmentCount());
        for (Map.Entry<Long, byte[]> segment : shipped.entrySet()) {
            assertArrayEquals(
                    segment.getValue(),
                    Files.readAllBytes(
                            target.dir().resolve(String.format(Locale.ROOT, "%020d.log", segment.getKey()))));
        }
        assertEquals(0, server.source.activeTransfers());
        source.enforceRetention(FAR_FUTURE_MS);
        assertEquals(1, source.segmentCount(), "released pins let retention and DeleteRecords finish");
        assertEquals(boundary, source.logStartOffset());
    }

    @Test
    void shouldReleasePinsWhenTheTransferConnectionIsGoneForTheTimeout() throws Exception {
        PartitionLog source = source("source");
        source.updateConfig(source.config().toBuilder().retentionMs(1).build());
        Source server = server(source);
        PartitionLog target = emptyTarget();
        ChunkFaultHook crashAtChunk3 = ChunkFaultHook.afterLanding((file, position, length, chunk) -> {
            if (chunk == 3) {
                throw new SimulatedCrash();
            }
        });
        assertThrows(
                SimulatedCrash.class,
                () -> client(crashAtChunk3)
                        .bootstrap(
                                target,
                                TOPIC,
                                PARTITION,
                                List.of(server.address()),
                                LEADER_EPOCH,
                                new TransferProgress()));
        assertEquals(1, server.source.activeTransfers());
        int segments = source.segmentCount();
        source.enforceRetention(FAR_FUTURE_MS);
        assertTrue(source.segmentCount() > 1, "pinned while the transfer may come back");

        server.clock.addAndGet(MoveFixtures.moveConfig().pinTimeoutMs());
        Poll.until(
                "pins of the abandoned transfer expire",
                Duration.ofSeconds(30),
                () -> {
                    server.source.expireAbandoned();
                    return server.source.activeTransfers();
                },
                active -> active == 0);
        source.enforceRetention(FAR_FUTURE_MS);
        assertEquals(1, source.segmentCount(), "of " + segments + " only the active segment is left");
    }
}
