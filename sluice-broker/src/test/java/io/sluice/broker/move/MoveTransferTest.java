package io.sluice.broker.move;

import static io.sluice.broker.move.MoveFixtures.LEADER_EPOCH;
import static io.sluice.broker.move.MoveFixtures.PARTITION;
import static io.sluice.broker.move.MoveFixtures.PRODUCER_B;
import static io.sluice.broker.move.MoveFixtures.START_MS;
import static io.sluice.broker.move.MoveFixtures.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.MoveConfig;
import io.sluice.broker.move.MoveFixtures.Source;
import io.sluice.log.AppendResult;
import io.sluice.log.LogConfig;
import io.sluice.log.LogReadResult;
import io.sluice.log.PartitionLog;
import io.sluice.log.ProducerStateException;
import io.sluice.log.RecoveryReport;
import io.sluice.log.epoch.EpochEntry;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MoveTransferTest extends MoveTestBase {
    private static MoveTransferClient client() {
        return new MoveTransferClient(MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED);
    }

    @Test
    void shouldShipClosedSegmentsByteIdenticalWithEpochsAndProducerState() throws Exception {
        PartitionLog source = source("source");
        Source server = server(source);
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();

        long end = client().bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress);

        long boundary = boundaryOf(source);
        assertEquals(boundary, end);
        assertEquals(boundary, target.logEndOffset());
        assertEquals(TransferPhase.DONE, progress.phase());
        assertTrue(source.segmentCount() > 10, "several segments: " + source.segmentCount());
        assertTrue(progress.chunksVerified() > 20, "many chunks: " + progress);
        assertEquals(progress.totalBytes(), progress.bytesVerified());
        assertEquals(progress.totalBytes(), progress.bytesShipped());
        assertEquals(0, progress.bytesResent());
        assertEquals(0, progress.chunksRejected());
        MoveFixtures.assertSegmentsIdentical(source, target, boundary);
        assertEquals(source.leaderEpochs(), target.leaderEpochs());
        assertEquals(source.producerCount(), target.producerCount());
        assertFalse(Files.exists(target.dir().resolve(StagingArea.DIR_NAME)), "staging removed");
        assertEquals(0, server.source.activeTransfers(), "pins released on completion");

        // producer state is right at the boundary: a retried batch is a duplicate, a gap is refused
        AppendResult retried = target.appendAsLeader(
                MoveFixtures.idempotent(PRODUCER_B, 18, 2, START_MS + 209), LEADER_EPOCH, START_MS);
        assertTrue(retried.duplicate());
        assertThrows(
                ProducerStateException.class,
                () -> target.appendAsLeader(
                        MoveFixtures.idempotent(PRODUCER_B, 30, 2, START_MS), LEADER_EPOCH, START_MS));

        // the log continues as a follower from the boundary: the source's active segment appended as fetched
        PartitionLog follower =
                closing(MoveFixtures.openLog(root.resolve("follower").resolve(TOPIC + "-" + PARTITION)));
        client().bootstrap(follower, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, new TransferProgress());
        LogReadResult tail = source.read(boundary, Integer.MAX_VALUE, Long.MAX_VALUE);
        ByteBuffer bytes = ByteBuffer.allocate(tail.sizeInBytes());
        tail.channel().read(bytes, tail.position());
        follower.appendAsFollower(bytes.flip());
        assertEquals(source.logEndOffset(), follower.logEndOffset());
        assertEquals(source.leaderEpochs(), follower.leaderEpochs());
    }

    @Test
    void shouldShipIdenticallyWhenTheSourceCutsChunksShorterThanThePipelinedRequests() throws Exception {
        PartitionLog source = source("source");
        MoveConfig sourceConfig = MoveFixtures.moveConfig().withChunkBytes(MoveFixtures.CHUNK_BYTES / 3);
        Source server = closing(new Source(source, sourceConfig, new AtomicLong(START_MS)));
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        MoveTransferClient pipelined =
                new MoveTransferClient(MoveFixtures.moveConfig().withChunksInFlight(8), ByteRateLimiter.UNLIMITED);

        long end = pipelined.bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress);

        long boundary = boundaryOf(source);
        assertEquals(boundary, end);
        assertEquals(0, progress.chunksRejected());
        assertEquals(progress.totalBytes(), progress.bytesVerified());
        assertTrue(
                progress.chunksVerified() * (MoveFixtures.CHUNK_BYTES / 3) >= progress.totalBytes(),
                "chunks of the source's size: " + progress);
        MoveFixtures.assertSegmentsIdentical(source, target, boundary);
    }

    @Test
    void shouldShipIdenticallyOneChunkAtATime() throws Exception {
        PartitionLog source = source("source");
        Source server = server(source);
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        MoveTransferClient stopAndWait =
                new MoveTransferClient(MoveFixtures.moveConfig().withChunksInFlight(1), ByteRateLimiter.UNLIMITED);

        long end = stopAndWait.bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress);

        assertEquals(boundaryOf(source), end);
        assertEquals(progress.totalBytes(), progress.bytesShipped());
        MoveFixtures.assertSegmentsIdentical(source, target, end);
    }

    @Test
    void shouldShipIdenticallyThroughTheDiskAndThePageCacheAtOnce() throws Exception {
        PartitionLog source = source("source");
        Source server = server(source);
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        MoveTransferClient twoLanes = MoveFixtures.twoLaneClient(ChunkFaultHook.NONE);

        long end = twoLanes.bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress);

        assertEquals(boundaryOf(source), end);
        ChunkSchedule lanes = twoLanes.schedule();
        assertTrue(lanes.filesTaken(ChunkSchedule.Lane.DISK) > 0, "the disk took files");
        assertTrue(lanes.filesTaken(ChunkSchedule.Lane.PAGE_CACHE) > 0, "the page cache took files");
        assertEquals(progress.totalBytes(), progress.bytesShipped());
        assertEquals(0, progress.chunksRejected());
        MoveFixtures.assertSegmentsIdentical(source, target, end);
        assertEquals(source.leaderEpochs(), target.leaderEpochs());
        assertEquals(source.producerCount(), target.producerCount());
    }

    @Test
    void shouldForceMovedFilesBeforeTheInstallOnlyWhenTheFlushPolicyForcesRecords() throws Exception {
        PartitionLog source = source("source");
        Source server = server(source);
        long boundary = boundaryOf(source);

        PartitionLog leftToOs = emptyTarget();
        client().bootstrap(leftToOs, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, new TransferProgress());
        assertEquals(
                leftToOs.logStartOffset(),
                leftToOs.recoveryPoint(),
                "installed from the page cache: a crash now recovers every moved segment batch by batch");
        leftToOs.flushRolledSegments();
        assertEquals(boundary, leftToOs.recoveryPoint(), "the flush forced every moved segment");

        LogConfig forcing = MoveFixtures.smallSegments().toBuilder()
                .flushIntervalMs(60_000L)
                .build();
        PartitionLog forced = closing(PartitionLog.open(
                root.resolve("forced").resolve(TOPIC + "-" + PARTITION),
                forcing,
                new RecoveryReport(),
                0L,
                0L,
                () -> START_MS));
        client().bootstrap(forced, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, new TransferProgress());
        assertEquals(boundary, forced.recoveryPoint(), "forced before the install, as its flush policy forces records");
        MoveFixtures.assertSegmentsIdentical(source, forced, boundary);
        MoveFixtures.assertSegmentsIdentical(source, leftToOs, boundary);
    }

    @Test
    void shouldSurviveReopenAfterInstall() throws Exception {
        PartitionLog source = source("source");
        Source server = server(source);
        Path dir = root.resolve("target").resolve(TOPIC + "-" + PARTITION);
        PartitionLog target = MoveFixtures.openLog(dir);
        client().bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, new TransferProgress());
        List<EpochEntry> epochs = target.leaderEpochs();
        target.close();

        PartitionLog reopened = closing(MoveFixtures.openLog(dir));
        assertEquals(boundaryOf(source), reopened.logEndOffset());
        assertEquals(epochs, reopened.leaderEpochs());
        assertEquals(source.producerCount(), reopened.producerCount());
    }
}
