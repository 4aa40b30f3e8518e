package io.sluice.log.ship;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shipper's reads of pinned segment files (through a memory mapping, which a file cut underneath faults with
 * SIGBUS) and the log's truncations exclude each other: the truncation waits for the read, and a read after a cut
 * below the boundary reads nothing.
 */
class PinnedReadTruncationTest {
    private static final long NOW = 1_700_000_000_000L;

    @TempDir
    Path root;

    @Test
    void shouldMakeATruncationWaitUntilAReadOfPinnedFilesEnds() throws Exception {
        SegmentPins pins = new SegmentPins();
        SegmentPins.Pin pin = pins.pin(0, 100);
        SegmentPins.Reading reading = pin.readingUncut();
        assertNotNull(reading);

        CompletableFuture<Void> truncation = CompletableFuture.runAsync(() -> {
            try (SegmentPins.Truncating cutting = pins.truncating()) {
                pins.truncatedTo(50);
            }
        });
        awaitTrue(pins::truncationWaits, "the truncation waits for the read");
        assertFalse(truncation.isDone());
        assertFalse(pin.isCut(), "nothing is cut while the read runs");

        reading.close();
        truncation.get(10, TimeUnit.SECONDS);
        assertTrue(pin.isCut());
        assertNull(pin.readingUncut(), "a cut pin's files are not read");
        assertFalse(pins.truncationWaits(), "the refused read holds nothing");
        try (SegmentPins.Truncating again = pins.truncating()) {
            pins.truncatedTo(40);
        }
    }

    @Test
    void shouldHoldALogTruncationBelowTheBoundaryUntilTheReadOfItsViewEnds() throws Exception {
        try (PartitionLog log =
                fill(PartitionLog.open(root.resolve("source"), config(), new RecoveryReport(), 0, 0, () -> NOW))) {
            long end = log.logEndOffset();
            ShippableLog view = log.pinForShipping(end);
            long cutAt = view.segments().get(1).baseOffset();
            SegmentPins.Reading reading = view.readingUncut();
            assertNotNull(reading);

            Thread truncating = new Thread(() -> {
                try {
                    log.truncateTo(cutAt);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            truncating.start();
            awaitTrue(() -> truncating.getState() == Thread.State.WAITING, "the truncation waits for the read");
            assertFalse(view.isCut(), "nothing is cut while the read runs");
            assertEquals(end, log.logEndOffset());

            reading.close();
            truncating.join(10_000);
            assertFalse(truncating.isAlive());
            assertEquals(cutAt, log.logEndOffset());
            assertTrue(view.isCut());
            assertNull(view.readingUncut(), "the cut view's files are not read");
            view.close();
        }
    }

    @Test
    void shouldGoOnReadingAViewWhenTheLogIsTruncatedAtItsBoundary() throws Exception {
        try (PartitionLog log =
                fill(PartitionLog.open(root.resolve("source"), config(), new RecoveryReport(), 0, 0, () -> NOW))) {
            try (ShippableLog view = log.pinForShipping(log.logEndOffset())) {
                log.truncateTo(view.boundaryOffset());
                try (SegmentPins.Reading reading = view.readingUncut()) {
                    assertNotNull(reading, "every listed file still holds what was listed");
                }
            }
        }
    }

    private static LogConfig config() {
        return LogConfig.builder().segmentBytes(1024).indexIntervalBytes(100).build();
    }

    private static PartitionLog fill(PartitionLog log) throws Exception {
        for (int i = 0; i < 40; i++) {
            ByteBuffer batch = MemoryRecords.withRecords(
                            Compression.NONE,
                            new SimpleRecord(
                                    NOW, ("value-" + i + "-" + "x".repeat(200)).getBytes(StandardCharsets.UTF_8)))
                    .buffer();
            log.appendAsLeader(batch, 0, NOW);
        }
        return log;
    }

    /** Waits for {@code condition}, which another thread makes true, failing after 10 s. */
    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not seen within 10 s: " + what);
            }
            Thread.onSpinWait();
        }
    }
}
