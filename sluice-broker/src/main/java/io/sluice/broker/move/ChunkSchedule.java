package io.sluice.broker.move;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Which staged file a transfer's next chunk request asks for, and how far each file has been asked for.
 *
 * <p>With one lane the files are asked for in order, each to its end; requests for the next file go out while the
 * answers for the one before are still arriving, so a file's end costs no round trip.
 *
 * <p>With two lanes (the target may write through the page cache, {@code sluice.move.page.cache.spill.enable}) the
 * disk and the page cache take files at the same time, each file wholly in one of them: the disk's lane takes files
 * from the start of the partition and is asked for while its backlog (bytes asked for and not yet verified, plus
 * bytes handed to its writes and not yet written) stays under {@code diskWindowBytes}; otherwise the page cache's lane
 * takes files from the end. So the disk writes all the time and only what it cannot take in time goes through the
 * page cache: the move runs at the wire's pace where the disk falls behind it, and copies into the page cache only
 * the difference. Once the page cache's lane has no file left to take, the disk's file may spill for its rest
 * ({@link StagedWrites#spillWhenBehind(boolean)}). The page cache's lane takes no file that would bring its bytes past
 * {@code pageCacheCapBytes} ({@code sluice.move.page.cache.spill.max.percent} of the move); once it reached that cap
 * the disk's lane takes the rest and nothing more spills. The disk's files left when the lanes meet spill their rest
 * only if they too fit under the cap, counted whole; the files an earlier schedule of the transfer sent through the
 * page cache (before a failover) count as well.
 *
 * <p>Not thread-safe; used by the transfer thread only.
 */
final class ChunkSchedule {
    /** Where a file's bytes go. */
    enum Lane {
        DISK,
        PAGE_CACHE
    }

    private final List<StagedFile> files;
    /** Each file's index in {@link #files}. */
    private final Map<StagedFile, Integer> indexes = new IdentityHashMap<>();
    /** Per file: the position up to which chunks have been asked for. */
    private final long[] askedUpTo;
    /** Per file: the lane that took it (null: not taken yet). */
    private final Lane[] lanes;

    private final boolean twoLanes;
    private final long diskWindowBytes;
    private final LongSupplier diskUnwrittenBytes;
    /** Whether the disk's files may spill their rest ({@link StagedWrites#spillWhenBehind(boolean)}). */
    private final Consumer<Boolean> diskSpill;
    /** The most bytes the page cache's lane takes, in whole files. */
    private final long pageCacheCapBytes;
    /**
     * Bytes of the files sent through the page cache: those its lane took, and those an earlier schedule of the same
     * transfer sent there (a failover builds a new schedule over the same files).
     */
    private long pageCacheBytes;

    private boolean diskAlone;
    /** Set once the page cache's lane reached its cap: no file, and no rest of one, spills any more. */
    private boolean pageCacheFull;
    /** Every file below it is complete. */
    private int firstIncomplete;
    /** Every file below it has been asked for to its end. */
    private int front;
    /** Every file above it has been asked for to its end. */
    private int back;
    /** The highest index the disk's lane took (-1: none). */
    private int lastDiskFile = -1;

    /** One lane: every file in order, all to the disk's lane. */
    static ChunkSchedule oneLane(List<StagedFile> files) {
        return new ChunkSchedule(files, false, 0, () -> 0, spill -> {}, 0);
    }

    /**
     * Two lanes.
     *
     * @param diskWindowBytes    the disk lane's backlog below which it is asked for next
     * @param diskUnwrittenBytes bytes handed to the disk lane's writes and not written yet
     * @param diskSpill          told false at once (a schedule after a failover starts with two lanes again, whatever
     *                           the one before allowed), and true once when the page cache's lane has no file left to
     *                           take (not when that would pass its cap)
     * @param pageCacheCapBytes  the most bytes the page cache's lane takes, in whole files
     */
    static ChunkSchedule twoLanes(
            List<StagedFile> files,
            long diskWindowBytes,
            LongSupplier diskUnwrittenBytes,
            Consumer<Boolean> diskSpill,
            long pageCacheCapBytes) {
        return new ChunkSchedule(files, true, diskWindowBytes, diskUnwrittenBytes, diskSpill, pageCacheCapBytes);
    }

    private ChunkSchedule(
            List<StagedFile> files,
            boolean twoLanes,
            long diskWindowBytes,
            LongSupplier diskUnwrittenBytes,
            Consumer<Boolean> diskSpill,
            long pageCacheCapBytes) {
        this.files = files;
        this.pageCacheCapBytes = pageCacheCapBytes;
        this.twoLanes = twoLanes;
        this.diskWindowBytes = diskWindowBytes;
        this.diskUnwrittenBytes = diskUnwrittenBytes;
        this.diskSpill = diskSpill;
        this.askedUpTo = new long[files.size()];
        this.lanes = new Lane[files.size()];
        for (int i = 0; i < files.size(); i++) {
            indexes.put(files.get(i), i);
            pageCacheBytes += files.get(i).directWritesStopped() ? files.get(i).expectedSize() : 0;
        }
        askAgainFromVerified();
        if (twoLanes) {
            diskSpill.accept(false);
        }
    }

    /**
     * The file the next chunk request asks for, taken by a lane now if it was not yet; null when every file has been
     * asked for to its end.
     */
    StagedFile next() {
        int diskFile = firstOpen();
        if (!twoLanes) {
            return take(diskFile, Lane.DISK);
        }
        int cacheFile = lastOpen();
        if (cacheFile >= 0
                && lanes[cacheFile] == null
                && pageCacheBytes + pageCacheCost(cacheFile) > pageCacheCapBytes) {
            pageCacheFull = true; // the next file would pass the cap: the disk takes the rest
        }
        if (cacheFile < 0 && !diskAlone && !pageCacheFull && !diskFilesFitUnderCap()) {
            pageCacheFull = true; // the rest of the disk's files may not spill: that would pass the cap
        }
        if (pageCacheFull && (cacheFile < 0 || lanes[cacheFile] == null)) {
            return take(diskFile, Lane.DISK);
        }
        if (cacheFile < 0) {
            if (!diskAlone) {
                diskAlone = true;
                diskSpill.accept(true);
            }
            return take(diskFile, Lane.DISK);
        }
        if (diskFile < 0 || diskBacklog() >= diskWindowBytes) {
            return take(cacheFile, Lane.PAGE_CACHE);
        }
        return take(diskFile, Lane.DISK);
    }

    /** Where {@code file} went (the disk's lane for a file not taken yet). */
    Lane laneOf(StagedFile file) {
        Lane lane = lanes[indexOf(file)];
        return lane == null ? Lane.DISK : lane;
    }

    /** How many files {@code lane} took. */
    int filesTaken(Lane lane) {
        int taken = 0;
        for (Lane each : lanes) {
            taken += each == lane ? 1 : 0;
        }
        return taken;
    }

    /** The position the next request for {@code file} starts at. */
    long askedUpTo(StagedFile file) {
        return askedUpTo[indexOf(file)];
    }

    /** Records a request for {@code bytes} more of {@code file}. */
    void asked(StagedFile file, int bytes) {
        askedUpTo[indexOf(file)] += bytes;
    }

    /** After outstanding answers were dropped: every file is asked for again from its last verified byte. */
    void askAgainFromVerified() {
        for (int i = 0; i < files.size(); i++) {
            askedUpTo[i] = files.get(i).verified();
        }
        front = 0;
        back = files.size() - 1;
    }

    /** Whether every file is complete. */
    boolean isComplete() {
        return firstIncomplete() == files.size();
    }

    /**
     * Whether a segment is still incomplete (else only the producer snapshot is left: it comes after the segments, in
     * {@link StagingArea}'s order).
     */
    boolean segmentsLeft() {
        int first = firstIncomplete();
        return first < files.size() && files.get(first).isSegment();
    }

    /** The disk lane's backlog: asked for and not verified, plus handed to its writes and not written. */
    long diskBacklog() {
        long backlog = diskUnwrittenBytes.getAsLong();
        for (int i = firstIncomplete(); i <= lastDiskFile; i++) {
            if (lanes[i] == Lane.DISK) {
                backlog += askedUpTo[i] - files.get(i).verified();
            }
        }
        return backlog;
    }

    /** The first file that is not complete ({@code files.size()} when all are); complete files stay complete. */
    private int firstIncomplete() {
        while (firstIncomplete < files.size() && files.get(firstIncomplete).isComplete()) {
            firstIncomplete++;
        }
        return firstIncomplete;
    }

    private StagedFile take(int index, Lane lane) {
        if (index < 0) {
            return null;
        }
        if (lanes[index] == null) {
            lanes[index] = lane;
            if (lane == Lane.PAGE_CACHE) {
                pageCacheBytes += pageCacheCost(index);
                files.get(index).stopDirectWrites();
            } else {
                lastDiskFile = Math.max(lastDiskFile, index);
            }
        }
        return files.get(index);
    }

    /** What sending file {@code index} through the page cache adds to its bytes (0: counted already). */
    private long pageCacheCost(int index) {
        StagedFile file = files.get(index);
        return file.directWritesStopped() ? 0 : file.expectedSize();
    }

    /**
     * Whether the disk's files not complete yet, counted whole, fit under the page cache's cap with what went there
     * already: only then may they spill their rest once the page cache's lane has nothing left.
     */
    private boolean diskFilesFitUnderCap() {
        long bytes = pageCacheBytes;
        for (int i = firstIncomplete(); i < files.size(); i++) {
            if (lanes[i] != Lane.PAGE_CACHE && !files.get(i).isComplete()) {
                bytes += pageCacheCost(i);
            }
        }
        return bytes <= pageCacheCapBytes;
    }

    /**
     * The first file not asked for to its end, if the page cache's lane has not taken it (-1 otherwise, or if there
     * is none): the files the page cache's lane took are the last ones, so none of the disk's comes after them.
     */
    private int firstOpen() {
        while (front < files.size() && askedUpTo[front] >= files.get(front).expectedSize()) {
            front++;
        }
        return front < files.size() && lanes[front] != Lane.PAGE_CACHE ? front : -1;
    }

    /**
     * The last file not asked for to its end, if the disk's lane has not taken it (-1 otherwise, or if there is none):
     * the page cache's lane never reaches past a file of the disk's.
     */
    private int lastOpen() {
        while (back >= 0 && askedUpTo[back] >= files.get(back).expectedSize()) {
            back--;
        }
        return back >= 0 && lanes[back] != Lane.DISK ? back : -1;
    }

    private int indexOf(StagedFile file) {
        Integer index = indexes.get(file);
        if (index == null) {
            throw new IllegalArgumentException(file.path() + " is not a file of this transfer");
        }
        return index;
    }
}
