package io.sluice.broker.move;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.move.ChunkSchedule.Lane;
import io.sluice.log.producer.ProducerSnapshotFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ChunkSchedule}: which file each chunk request asks for, with one lane and with two. */
class ChunkScheduleTest {
    private static final int CHUNK = 40;
    private static final long FILE_BYTES = 100;

    @TempDir
    Path dir;

    private final List<StagedFile> files = new ArrayList<>();

    @AfterEach
    void close() throws IOException {
        for (StagedFile file : files) {
            file.close();
        }
    }

    /** {@code count} empty staged files of {@link #FILE_BYTES} each, none verified. */
    private List<StagedFile> files(int count) throws IOException {
        for (int i = 0; i < count; i++) {
            files.add(StagedFile.producerSnapshot(dir.resolve("f" + i), i, FILE_BYTES));
        }
        return files;
    }

    /** Asks for the next chunk as the transfer does; returns the file's index, -1 when nothing is left to ask. */
    private int ask(ChunkSchedule schedule) {
        StagedFile next = schedule.next();
        if (next == null) {
            return -1;
        }
        schedule.asked(next, (int) Math.min(CHUNK, next.expectedSize() - schedule.askedUpTo(next)));
        return files.indexOf(next);
    }

    @Test
    void oneLaneAsksForTheFilesInOrderAndForTheNextBeforeTheLastIsAnswered() throws Exception {
        ChunkSchedule schedule = ChunkSchedule.oneLane(files(3));

        List<Integer> asked = new ArrayList<>();
        for (int i = ask(schedule); i >= 0; i = ask(schedule)) {
            asked.add(i);
        }

        assertEquals(List.of(0, 0, 0, 1, 1, 1, 2, 2, 2), asked);
        assertEquals(3, schedule.filesTaken(Lane.DISK));
        assertEquals(FILE_BYTES, schedule.askedUpTo(files.get(2)));
    }

    @Test
    void twoLanesSendTheDisksOverflowToThePageCacheFromTheEnd() throws Exception {
        AtomicLong unwritten = new AtomicLong();
        AtomicInteger alone = new AtomicInteger();
        ChunkSchedule schedule = ChunkSchedule.twoLanes(
                files(4), 100, unwritten::get, spill -> alone.addAndGet(spill ? 1 : 0), Long.MAX_VALUE);

        // the disk's backlog (asked and not verified) grows 40 per request: under its window of 100 twice
        assertEquals(0, ask(schedule));
        assertEquals(0, ask(schedule));
        assertEquals(80, schedule.diskBacklog());
        // at 100 it is not under: the page cache takes the last file, and keeps taking while the disk is behind
        assertEquals(0, ask(schedule));
        assertEquals(3, ask(schedule));
        assertEquals(3, ask(schedule));
        assertEquals(3, ask(schedule));
        assertEquals(2, ask(schedule));
        assertEquals(Lane.PAGE_CACHE, schedule.laneOf(files.get(3)));

        // the disk caught up (its asked bytes verified, as a lower backlog shows): it takes the next file in order
        unwritten.set(-schedule.diskBacklog());
        assertEquals(1, ask(schedule));
        assertEquals(Lane.DISK, schedule.laneOf(files.get(1)));

        // the page cache never takes past a file of the disk's: once it has nothing left, the disk goes on alone
        unwritten.set(1_000);
        assertEquals(2, ask(schedule));
        assertEquals(2, ask(schedule));
        assertEquals(0, alone.get());
        assertEquals(1, ask(schedule));
        assertEquals(1, alone.get(), "the disk's lane was told it is alone");
        assertEquals(1, ask(schedule));
        assertEquals(-1, ask(schedule));
        assertEquals(1, alone.get(), "told once");
        assertEquals(2, schedule.filesTaken(Lane.DISK));
        assertEquals(2, schedule.filesTaken(Lane.PAGE_CACHE));
    }

    @Test
    void thePageCacheTakesNoFilePastItsCapAndTheDiskTakesTheRestWithoutSpilling() throws Exception {
        AtomicLong unwritten = new AtomicLong(1_000); // the disk is always behind
        AtomicInteger alone = new AtomicInteger();
        // a cap of one and a half files: the page cache takes one whole file, not a second
        ChunkSchedule schedule = ChunkSchedule.twoLanes(
                files(4), 100, unwritten::get, spill -> alone.addAndGet(spill ? 1 : 0), FILE_BYTES * 3 / 2);

        List<Integer> asked = new ArrayList<>();
        for (int i = ask(schedule); i >= 0; i = ask(schedule)) {
            asked.add(i);
        }

        assertEquals(List.of(3, 3, 3, 0, 0, 0, 1, 1, 1, 2, 2, 2), asked);
        assertEquals(1, schedule.filesTaken(Lane.PAGE_CACHE));
        assertEquals(3, schedule.filesTaken(Lane.DISK));
        assertEquals(0, alone.get(), "a capped page cache does not let the disk's file spill its rest");
    }

    @Test
    void aCapOfNothingKeepsEveryFileOnTheDisk() throws Exception {
        AtomicLong unwritten = new AtomicLong(1_000);
        AtomicInteger alone = new AtomicInteger();
        ChunkSchedule schedule =
                ChunkSchedule.twoLanes(files(2), 100, unwritten::get, spill -> alone.addAndGet(spill ? 1 : 0), 0);

        List<Integer> asked = new ArrayList<>();
        for (int i = ask(schedule); i >= 0; i = ask(schedule)) {
            asked.add(i);
        }

        assertEquals(List.of(0, 0, 0, 1, 1, 1), asked);
        assertEquals(0, schedule.filesTaken(Lane.PAGE_CACHE));
        assertEquals(0, alone.get());
    }

    @Test
    void theDisksFilesSpillNoRestWhereTheLanesMeetWhenThatWouldPassTheCap() throws Exception {
        // a cap of two and a half files: the page cache's lane takes two, the disk's lane two, which may not spill
        assertEquals(0, disksFilesSpillingWhereTheLanesMeet(FILE_BYTES * 5 / 2));
    }

    @Test
    void theDisksFilesSpillTheirRestWhereTheLanesMeetWhenAllFitUnderTheCap() throws Exception {
        assertEquals(1, disksFilesSpillingWhereTheLanesMeet(FILE_BYTES * 4), "the default cap, the whole move");
    }

    /**
     * Four files: the disk's lane takes the first two, the page cache's lane the last two; returns how often the disk's
     * lane was told it may spill its rest.
     */
    private int disksFilesSpillingWhereTheLanesMeet(long capBytes) throws Exception {
        AtomicLong unwritten = new AtomicLong();
        AtomicInteger alone = new AtomicInteger();
        ChunkSchedule schedule = ChunkSchedule.twoLanes(
                files(4), 100, unwritten::get, spill -> alone.addAndGet(spill ? 1 : 0), capBytes);
        List<Integer> asked = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            asked.add(ask(schedule)); // the disk's lane is under its window
        }
        for (int i = 0; i < 3; i++) {
            asked.add(ask(schedule)); // at it: the page cache's lane takes the last file
        }
        unwritten.set(-100); // the disk caught up
        for (int i = 0; i < 3; i++) {
            asked.add(ask(schedule));
        }
        unwritten.set(1_000); // and fell behind again
        for (int i = ask(schedule); i >= 0; i = ask(schedule)) {
            asked.add(i);
        }
        assertEquals(List.of(0, 0, 0, 3, 3, 3, 1, 1, 1, 2, 2, 2), asked);
        assertEquals(2, schedule.filesTaken(Lane.PAGE_CACHE));
        return alone.get();
    }

    @Test
    void theFilesAnEarlierScheduleSentThroughThePageCacheCountAgainstTheCap() throws Exception {
        Path template = dir.resolve("template");
        ProducerSnapshotFile.write(template, List.of());
        byte[] snapshot = Files.readAllBytes(template);
        for (int i = 0; i < 4; i++) {
            files.add(StagedFile.producerSnapshot(dir.resolve("s" + i), i, snapshot.length));
        }
        AtomicLong unwritten = new AtomicLong(1_000); // the disk is always behind
        long cap = snapshot.length * 3L / 2; // one and a half files
        ChunkSchedule first = ChunkSchedule.twoLanes(files, 100, unwritten::get, spill -> {}, cap);
        assertEquals(3, ask(first));
        StagedFile last = files.get(3);
        last.write(ByteBuffer.wrap(snapshot), 0);
        last.accept(snapshot.length);
        assertTrue(last.isComplete());

        // the source failed: the next one's listing gets a schedule of its own over the same files
        ChunkSchedule second = ChunkSchedule.twoLanes(files, 100, unwritten::get, spill -> {}, cap);
        List<Integer> asked = new ArrayList<>();
        for (int i = ask(second); i >= 0; i = ask(second)) {
            asked.add(i);
        }

        assertEquals(List.of(0, 1, 2), asked);
        assertEquals(0, second.filesTaken(Lane.PAGE_CACHE), "a file went through the page cache already");
    }

    @Test
    void aNewScheduleStopsTheSpillTheOneBeforeAllowed() throws Exception {
        AtomicLong unwritten = new AtomicLong();
        List<Boolean> spills = new ArrayList<>();
        ChunkSchedule first = ChunkSchedule.twoLanes(files(2), 100, unwritten::get, spills::add, Long.MAX_VALUE);
        List<Integer> asked = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            asked.add(ask(first)); // the disk's lane is under its window
        }
        unwritten.set(1_000);
        for (int i = ask(first); i >= 0; i = ask(first)) {
            asked.add(i);
        }
        assertEquals(List.of(0, 0, 0, 1, 1, 1), asked);
        assertEquals(List.of(false, true), spills, "the lanes met: the disk's file may spill its rest");

        // a failover: the next source's schedule has both lanes again, and the disk's files do not spill
        ChunkSchedule.twoLanes(files, 100, unwritten::get, spills::add, Long.MAX_VALUE);
        assertEquals(List.of(false, true, false), spills);
    }

    @Test
    void askingAgainFromTheVerifiedBytesKeepsEachFileInItsLane() throws Exception {
        AtomicLong unwritten = new AtomicLong();
        ChunkSchedule schedule = ChunkSchedule.twoLanes(files(3), 50, unwritten::get, spill -> {}, Long.MAX_VALUE);
        assertEquals(0, ask(schedule));
        assertEquals(0, ask(schedule));
        assertEquals(2, ask(schedule));

        schedule.askAgainFromVerified();

        assertEquals(0, schedule.askedUpTo(files.get(0)));
        assertEquals(0, schedule.askedUpTo(files.get(2)));
        assertEquals(0, schedule.diskBacklog(), "nothing asked any more");
        assertEquals(0, ask(schedule));
        unwritten.set(1_000);
        assertEquals(2, ask(schedule), "the page cache's file again, not the next one");
        assertSame(Lane.PAGE_CACHE, schedule.laneOf(files.get(2)));
    }

    @Test
    void aFileOfAnotherTransferIsRefused() throws Exception {
        ChunkSchedule schedule = ChunkSchedule.oneLane(List.copyOf(files(1)));
        StagedFile other = StagedFile.producerSnapshot(dir.resolve("other"), 9, FILE_BYTES);
        files.add(other);

        assertThrows(IllegalArgumentException.class, () -> schedule.asked(other, 1));
        assertNull(ChunkSchedule.oneLane(List.of()).next());
    }
}
