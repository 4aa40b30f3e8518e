package io.sluice.broker.move;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.log.LogConfig;
import io.sluice.log.segment.SegmentFileNames;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StagedWrites} with spilling on: while its write thread is held up (a disk behind the wire), the payloads that
 * find the ring full go through the page cache at once, and the file ends byte-identical once the ring's writes land.
 */
class StagedWritesSpillTest {
    private static final int RUN = StagedWrites.BUFFER_BYTES;
    private static final int RUNS = 6;

    @TempDir
    Path dir;

    @Test
    void shouldWriteThroughThePageCacheWhileTheRingWaitsForTheDisk() throws Exception {
        byte[] expected = new byte[RUN * RUNS];
        new Random(7).nextBytes(expected);
        Path path = SegmentFileNames.logFile(dir, 0);
        TransferWorker thread = new TransferWorker("spill-test-writer", "the test's writes");
        CountDownLatch diskBusy = new CountDownLatch(1);
        thread.executor().submit(() -> {
            diskBusy.await();
            return null;
        });
        try (StagedWrites writes = new StagedWrites(thread, true);
                StagedFile file = StagedFile.segment(
                        path, 0, 0, expected.length, ByteBuffer.allocateDirect(4096), LogConfig.defaults(), true)) {
            for (int i = 0; i < RUNS; i++) {
                ByteBuffer buffer = writes.take();
                buffer.put(expected, i * RUN, RUN).flip();
                file.writeLater(buffer, (long) i * RUN, writes);
            }
            assertEquals(
                    (long) (RUNS - 3) * RUN,
                    writes.spilledBytes(),
                    "the payloads after the three the ring holds went through the page cache");
            byte[] early = Files.readAllBytes(path);
            assertEquals(expected.length, early.length, "the spilled payloads are in the file already");
            assertArrayEquals(
                    Arrays.copyOfRange(expected, 3 * RUN, expected.length),
                    Arrays.copyOfRange(early, 3 * RUN, expected.length));

            diskBusy.countDown();
            file.awaitWrites();
            assertArrayEquals(expected, Files.readAllBytes(path));
        } finally {
            diskBusy.countDown();
        }
    }

    @Test
    void shouldWaitForTheRingWhenNotSpilling() throws Exception {
        byte[] expected = new byte[RUN * RUNS];
        new Random(11).nextBytes(expected);
        Path path = SegmentFileNames.logFile(dir, 0);
        try (StagedWrites writes = new StagedWrites("no-spill", false);
                StagedFile file = StagedFile.segment(
                        path, 0, 0, expected.length, ByteBuffer.allocateDirect(4096), LogConfig.defaults(), true)) {
            for (int i = 0; i < RUNS; i++) {
                ByteBuffer buffer = writes.take();
                buffer.put(expected, i * RUN, RUN).flip();
                file.writeLater(buffer, (long) i * RUN, writes);
            }
            file.awaitWrites();
            assertEquals(0, writes.spilledBytes());
            assertArrayEquals(expected, Files.readAllBytes(path));
        }
    }
}
