package io.sluice.broker.move;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.log.LogConfig;
import io.sluice.log.segment.SegmentFileNames;
import io.sluice.testkit.Poll;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link StagedWrites}: a file whose writes find the ring full (its write thread held up, as by a disk behind the
 * wire) goes on through the page cache when spilling, keeps O_DIRECT otherwise, and lands byte-identical either way.
 */
class StagedWritesSpillTest {
    private static final int RUN = StagedWrites.BUFFER_BYTES;
    private static final int RING = 3;
    private static final int RUNS = 6;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "spilling: {0}")
    @ValueSource(booleans = {true, false})
    void shouldGoOnThroughThePageCacheOnlyWhenSpillingOnceTheRingIsFull(boolean spill) throws Exception {
        byte[] expected = new byte[RUN * RUNS];
        new Random(7).nextBytes(expected);
        Path path = SegmentFileNames.logFile(dir, 0);
        TransferWorker thread = new TransferWorker("spill-test-writer", "the test's writes");
        CountDownLatch diskBusy = new CountDownLatch(1);
        var unused = thread.run(() -> {
            try {
                diskBusy.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread transfer = Thread.currentThread();
        AtomicReference<Thread.State> stateWhenReleased = new AtomicReference<>();
        Thread disk = new Thread(() -> {
            try {
                stateWhenReleased.set(Poll.until(
                        "the transfer waiting for a full ring",
                        Duration.ofSeconds(30),
                        transfer::getState,
                        state -> state == Thread.State.WAITING));
            } catch (Exception e) {
                stateWhenReleased.set(null);
            } finally {
                diskBusy.countDown();
            }
        });
        try (StagedWrites writes = new StagedWrites(
                        thread, spill, new AlignedBufferPool(StagedWrites.BUFFER_BYTES, StagedWrites.ALIGNMENT, RING));
                StagedFile file = StagedFile.segment(
                        path, 0, 0, expected.length, ByteBuffer.allocateDirect(4096), LogConfig.defaults(), true)) {
            assumeTrue(file.writesDirect(), "the temporary directory's file system refuses O_DIRECT");
            for (int i = 0; i < RUNS; i++) {
                if (i == RING) {
                    disk.start(); // the fourth take waits for the first write, held up until then
                }
                ByteBuffer buffer = writes.take();
                buffer.put(expected, i * RUN, RUN).flip();
                file.writeLater(buffer, (long) i * RUN, writes);
                assertEquals(spill && i >= RING, !file.writesDirect(), "O_DIRECT after write " + i);
            }
            file.awaitWrites();
            assertEquals(Thread.State.WAITING, stateWhenReleased.get(), "the ring was full at the fourth take");
            assertEquals(spill ? (long) (RUNS - RING) * RUN : 0, writes.bufferedBytes());
            assertArrayEquals(expected, Files.readAllBytes(path));
        } finally {
            diskBusy.countDown();
            disk.join();
        }
    }

    @Test
    void shouldKeepODirectWhileTheRingHasRoom() throws Exception {
        byte[] expected = new byte[RUN * RUNS];
        new Random(11).nextBytes(expected);
        Path path = SegmentFileNames.logFile(dir, 0);
        try (StagedWrites writes = new StagedWrites("keeps-up", true);
                StagedFile file = StagedFile.segment(
                        path, 0, 0, expected.length, ByteBuffer.allocateDirect(4096), LogConfig.defaults(), true)) {
            assumeTrue(file.writesDirect(), "the temporary directory's file system refuses O_DIRECT");
            for (int i = 0; i < RUNS; i++) {
                ByteBuffer buffer = writes.take();
                buffer.put(expected, i * RUN, RUN).flip();
                file.writeLater(buffer, (long) i * RUN, writes);
                file.awaitWrites(); // a disk that keeps up: every write done before the next take
            }
            assertTrue(file.writesDirect());
            assertEquals(0, writes.bufferedBytes());
            assertEquals(expected.length, Files.size(path));
            assertArrayEquals(expected, Files.readAllBytes(path));
        }
    }

    @Test
    void shouldGiveItsBuffersBackForTheNextTransferOnceItsWritesAreDone() throws Exception {
        AlignedBufferPool pool = new AlignedBufferPool(StagedWrites.BUFFER_BYTES, StagedWrites.ALIGNMENT, RING);
        byte[] expected = new byte[RUN * 2];
        new Random(13).nextBytes(expected);
        Path path = SegmentFileNames.logFile(dir, 0);
        java.util.Set<ByteBuffer> used = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        try (StagedWrites writes =
                        new StagedWrites(new TransferWorker("pool-test-writer", "the test's writes"), true, pool);
                StagedFile file = StagedFile.segment(
                        path, 0, 0, expected.length, ByteBuffer.allocateDirect(4096), LogConfig.defaults(), true)) {
            for (int i = 0; i < 2; i++) {
                ByteBuffer buffer = writes.take();
                used.add(buffer);
                buffer.put(expected, i * RUN, RUN).flip();
                file.writeLater(buffer, (long) i * RUN, writes);
            }
            assertEquals(0, pool.kept(), "the buffers are in use until the transfer closes");
        }
        assertEquals(2, pool.kept());
        assertArrayEquals(expected, Files.readAllBytes(path));
        try (StagedWrites next =
                new StagedWrites(new TransferWorker("pool-test-writer-2", "the test's writes"), true, pool)) {
            assertTrue(used.contains(next.take()), "the next transfer receives into a kept buffer");
            assertEquals(1, pool.kept());
        }
    }
}
