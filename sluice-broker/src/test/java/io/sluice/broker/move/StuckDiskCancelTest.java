package io.sluice.broker.move;

import static io.sluice.broker.move.MoveFixtures.LEADER_EPOCH;
import static io.sluice.broker.move.MoveFixtures.PARTITION;
import static io.sluice.broker.move.MoveFixtures.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.move.MoveFixtures.Source;
import io.sluice.log.PartitionLog;
import io.sluice.testkit.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/**
 * A cancel while the target's disk holds a staged write or a segment's finish up (a stuck disk): the transfer ends at
 * once, cancelled, installing nothing, and its staging goes as soon as the held-up work returns, never to be written
 * into again. The next transfer of the partition waits for that removal and starts afresh.
 */
class StuckDiskCancelTest extends MoveTestBase {
    /** Bounds a wait that ends at once unless something is stuck (a held-up disk task holds a transfer 30 s at most). */
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** The chunk whose write the disk holds up. */
    private static final long HELD_CHUNK = 6;

    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch letGo = new CountDownLatch(1);
    private final AtomicReference<Thread> heldThread = new AtomicReference<>();

    private void holdHere() {
        heldThread.set(Thread.currentThread());
        held.countDown();
        try {
            letGo.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The thread that ran the last {@link #bootstrapAside}. */
    private Thread asideThread;

    /** Runs {@code client}'s bootstrap on a thread of its own; the future holds what it threw or returned. */
    private CompletableFuture<Object> bootstrapAside(
            MoveTransferClient client, PartitionLog target, Source server, TransferProgress progress) {
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                outcome.complete(
                        client.bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress));
            } catch (Throwable e) {
                outcome.complete(e);
            }
        });
        thread.setDaemon(true);
        thread.start();
        asideThread = thread;
        return outcome;
    }

    private static void assertCancelled(Object outcome, TransferProgress progress) {
        MoveException cancelled = assertInstanceOf(MoveException.class, outcome, String.valueOf(outcome));
        assertEquals(Errors.REASSIGNMENT_IN_PROGRESS, cancelled.error());
        assertEquals(TransferPhase.CANCELLED, progress.phase());
    }

    private void assertNothingInstalled(PartitionLog target) throws Exception {
        assertEquals(0, target.logEndOffset());
        assertEquals(1, target.segmentCount());
        try (Stream<Path> files = Files.list(targetDir())) {
            assertEquals(
                    List.of(),
                    files.filter(f -> f.getFileName().toString().matches("0*[1-9][0-9]*\\..*"))
                            .toList(),
                    "files moved in past the empty active segment");
        }
    }

    private void awaitStagingGoneAfterTheHeldTask() throws Exception {
        Poll.until(
                "the held-up disk task returned", WAIT, () -> heldThread.get().isAlive(), alive -> !alive);
        assertFalse(Files.exists(StagingArea.dirOf(targetDir())), "staging left after the held task returned");
    }

    /** A fault hook that holds up the staged write of chunk {@code HELD_CHUNK} ({@link #holdHere}). */
    private ChunkFaultHook holdingTheWriteOfHeldChunk() {
        AtomicBoolean holdNextWrite = new AtomicBoolean();
        return new ChunkFaultHook() {
            @Override
            public void inFlight(java.nio.ByteBuffer bytes, long position, long chunk) {
                if (chunk == HELD_CHUNK) {
                    holdNextWrite.set(true);
                }
            }

            @Override
            public void beforeWrite(Path file, long position) {
                if (holdNextWrite.compareAndSet(true, false)) {
                    holdHere();
                }
            }
        };
    }

    @Test
    void shouldEndACancelledMoveAtOnceWhileAStagedWriteIsHeldUpAndRemoveItsStagingOnceTheWriteReturns()
            throws Exception {
        Source server = server(source("source"));
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        MoveTransferClient client = new MoveTransferClient(MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED);
        client.faults(holdingTheWriteOfHeldChunk());

        CompletableFuture<Object> outcome = bootstrapAside(client, target, server, progress);
        try {
            assertTrue(held.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the write of a chunk is held up");
            client.cancel();
            assertCancelled(outcome.get(WAIT.toSeconds(), TimeUnit.SECONDS), progress);
            assertTrue(heldThread.get().isAlive(), "the write is still held up");
            assertEquals(0, server.source.activeTransfers(), "pins released at once");
            assertNothingInstalled(target);
        } finally {
            letGo.countDown();
        }
        awaitStagingGoneAfterTheHeldTask();
        assertNothingInstalled(target);
    }

    /**
     * Every chunk is in and the transfer waits for the first segment's finish (its index files) before the install,
     * when it is cancelled: it ends at once and installs nothing, and the finish, let go afterwards, writes nothing
     * into staging that outlives it.
     */
    @Test
    void shouldInstallNothingAndLeaveNoStagingWhenCancelledWhileASegmentsFinishIsHeldUp() throws Exception {
        Source server = server(source("source"));
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        AtomicBoolean first = new AtomicBoolean(true);
        MoveTransferClient client = new MoveTransferClient(MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED);
        client.faults(new ChunkFaultHook() {
            @Override
            public void beforeFinish(Path file) {
                if (first.compareAndSet(true, false)) {
                    holdHere();
                }
            }
        });

        CompletableFuture<Object> outcome = bootstrapAside(client, target, server, progress);
        try {
            assertTrue(held.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the first finish is held up");
            Poll.until("every chunk is in", WAIT, progress::phase, phase -> phase == TransferPhase.INSTALLING);
            client.cancel();
            assertCancelled(outcome.get(WAIT.toSeconds(), TimeUnit.SECONDS), progress);
            assertTrue(heldThread.get().isAlive(), "the finish is still held up");
        } finally {
            letGo.countDown();
        }
        awaitStagingGoneAfterTheHeldTask();
        assertNothingInstalled(target);
        assertEquals(0, server.source.activeTransfers());
    }

    /**
     * A transfer of the partition asked for while the staging of its cancelled one waits for a held-up write starts
     * once that staging is gone, from nothing, and installs every file.
     */
    @Test
    void shouldStartTheNextTransferOnlyOnceTheCancelledOnesStagingIsGone() throws Exception {
        PartitionLog sourceLog = source("source");
        Source server = server(sourceLog);
        PartitionLog target = emptyTarget();
        MoveTransferClient cancelled = new MoveTransferClient(MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED);
        cancelled.faults(holdingTheWriteOfHeldChunk());
        TransferProgress first = new TransferProgress();
        CompletableFuture<Object> firstOutcome = bootstrapAside(cancelled, target, server, first);
        TransferProgress second = new TransferProgress();
        CompletableFuture<Object> secondOutcome;
        try {
            assertTrue(held.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the write of a chunk is held up");
            cancelled.cancel();
            assertCancelled(firstOutcome.get(WAIT.toSeconds(), TimeUnit.SECONDS), first);
            secondOutcome = bootstrapAside(
                    new MoveTransferClient(MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED),
                    target,
                    server,
                    second);
            Thread next = asideThread;
            Poll.until("the next transfer waits", WAIT, next::getState, state -> state == Thread.State.WAITING);
            assertEquals(TransferPhase.PENDING, second.phase(), "the next transfer waits for the removal: " + second);
            assertTrue(Files.exists(StagingArea.dirOf(targetDir())), "the cancelled transfer's staging waits");
        } finally {
            letGo.countDown();
        }
        assertEquals(boundaryOf(sourceLog), secondOutcome.get(60, TimeUnit.SECONDS));
        MoveFixtures.assertSegmentsIdentical(sourceLog, target, boundaryOf(sourceLog));
        assertEquals(second.totalBytes(), second.bytesShipped(), "shipped afresh: " + second);
        assertFalse(Files.exists(StagingArea.dirOf(targetDir())));
        Poll.until("every pin released", WAIT, server.source::activeTransfers, n -> n == 0);
    }
}
