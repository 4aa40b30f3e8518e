package io.sluice.broker.move;

import static io.sluice.broker.move.MoveFixtures.LEADER_EPOCH;
import static io.sluice.broker.move.MoveFixtures.PARTITION;
import static io.sluice.broker.move.MoveFixtures.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.move.MoveFixtures.Source;
import io.sluice.log.PartitionLog;
import io.sluice.testkit.Poll;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A staged write that outlives its transfer: the broker stops (the move thread is interrupted) while a write of a
 * chunk is held up, as by a disk far behind, and the next transfer of the partition resumes from the same staging
 * files and installs them before the old write goes on. The old write must not land in the file the new transfer
 * wrote and installed (two writers on one file): the interrupted transfer closed its descriptors of the file, so the
 * late write fails on them.
 */
class LateStagedWriteTest extends MoveTestBase {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The chunk whose write is held up; its bytes are corrupted in flight, so a late write of it would show. */
    private static final long HELD_CHUNK = 6;

    @Test
    void shouldNotLetTheWriteOfAnInterruptedTransferLandInTheFilesOfTheNextOne() throws Exception {
        PartitionLog source = source("source");
        Source server = server(source);
        PartitionLog target = emptyTarget();
        CountDownLatch writeHeld = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicBoolean holdNextWrite = new AtomicBoolean();
        AtomicReference<Thread> heldWriter = new AtomicReference<>();
        ChunkFaultHook corruptAndHoldChunk6 = new ChunkFaultHook() {
            @Override
            public void inFlight(ByteBuffer bytes, long position, long chunk) {
                if (chunk == HELD_CHUNK) {
                    int at = bytes.position();
                    bytes.put(at, (byte) ~bytes.get(at));
                    holdNextWrite.set(true);
                }
            }

            @Override
            public void beforeWrite(Path file, long position) {
                if (holdNextWrite.compareAndSet(true, false)) {
                    heldWriter.set(Thread.currentThread());
                    writeHeld.countDown();
                    try {
                        letGo.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        MoveTransferClient first = new MoveTransferClient(MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED);
        first.faults(corruptAndHoldChunk6);
        AtomicReference<Throwable> firstEnded = new AtomicReference<>();
        Thread moveThread = new Thread(() -> {
            try {
                first.bootstrap(
                        target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, new TransferProgress());
                firstEnded.set(new AssertionError("the first transfer completed"));
            } catch (Throwable e) {
                firstEnded.set(e);
            }
        });
        moveThread.start();
        try {
            assertTrue(writeHeld.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the write of chunk 6 is held up");
            moveThread.interrupt(); // broker shutdown
            moveThread.join(WAIT.toMillis());
            assertInstanceOf(InterruptedException.class, firstEnded.get(), String.valueOf(firstEnded.get()));
            assertTrue(heldWriter.get().isAlive(), "the held write outlived its transfer");
            assertTrue(Files.exists(StagingArea.dirOf(targetDir()).resolve(StagingArea.MANIFEST_FILE)));

            TransferProgress second = new TransferProgress();
            new MoveTransferClient(MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED)
                    .bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, second);
            assertEquals(boundaryOf(source), target.logEndOffset());
            assertTrue(second.bytesShipped() < second.totalBytes(), "resumed from the staged files: " + second);
        } finally {
            letGo.countDown();
        }
        Poll.until("the held write is over", WAIT, () -> heldWriter.get().isAlive(), alive -> !alive);

        MoveFixtures.assertSegmentsIdentical(source, target, boundaryOf(source));
        assertEquals(0, server.source.activeTransfers());
    }
}
