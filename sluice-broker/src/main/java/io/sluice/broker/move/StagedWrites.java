package io.sluice.broker.move;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One lane of a transfer's writes: a ring of block-aligned direct buffers (three of {@link #BUFFER_BYTES}, 24 MiB of
 * direct memory per lane, taken from and given back to a pool shared by the broker's transfers) that received payload
 * is read into, and one thread that writes each filled buffer into its staged file ({@link StagedFile#write}, O_DIRECT
 * where it can) while the transfer thread receives and checks the next one. A buffer comes back for reading once its
 * write is done. The first write that failed, whatever it threw, is kept and reported by every later {@link #take()}
 * and {@link #awaitFailure()} as a {@link StagedWriteException} ({@link #failureBehind}): the disk failed the
 * transfer, which then ends at once. Writes run in submission order on the one thread, so a file's last write done
 * means all of its writes are done ({@link StagedFile} waits for that before it reads, truncates, finishes or closes
 * the file); a file is written by one lane only. A cancel ends every wait for a write at once (a disk that holds a
 * write up holds no cancelled transfer), and the writes not started yet are dropped; the buffers go back to the pool
 * once the write in progress returns.
 *
 * <p>A transfer has the disk's lane, and when the partition leaves flushing to the OS and
 * {@code sluice.move.page.cache.spill.enable} is on, a second lane for files written through the page cache
 * ({@link ChunkSchedule} chooses which file each chunk is for, so that the disk never waits for the wire and the page
 * cache takes only what the disk cannot). When the disk falls behind the wire (the ring is full when the transfer
 * wants a buffer), the transfer waits for it, unless spilling ({@link #spillWhenBehind(boolean)}: the schedule turns it on once
 * the page cache's lane has no file left). Then the file being written goes on through the page cache
 * ({@link StagedFile#stopDirectWrites}) and the flush task forces it after the install. The switch is per file, for
 * all of the file's remaining writes: buffered and O_DIRECT writes to one file exclude each other in the kernel (the
 * inode's lock, held across an O_DIRECT write), so mixing them would tie the page-cache writes to the disk's pace
 * again; for the same reason the two lanes never share a file.
 *
 * <p>Not thread-safe; called by the transfer thread only (the writes run on one daemon thread of its own).
 */
final class StagedWrites implements AutoCloseable {
    /**
     * Bytes per buffer, and per O_DIRECT write; the disk's pace depends on it. Writing 2 GB with {@code dd oflag=direct}
     * on the 2026-12-06 test host: 1 MiB writes 1.1-1.2 GB/s, 4 MiB 1.3 GB/s, 8 MiB 1.37 GB/s, 16 MiB no faster; 256 KiB
     * ones ran far below the disk's speed on earlier hosts. The faster the disk takes the writes, the less of a move
     * spills into the page cache (docs/benchmarks.md section 10).
     */
    static final int BUFFER_BYTES = 8 << 20;
    /** The buffers start on this boundary, so whole runs can be written with O_DIRECT. */
    static final int ALIGNMENT = 4096;
    /** Buffers in the ring: one being received while the others are written. */
    private static final int BUFFERS = 3;
    /** Bytes the ring holds. */
    static final long RING_BYTES = (long) BUFFERS * BUFFER_BYTES;
    /** The rings of two transfers (the default {@code sluice.move.max.concurrent.per.broker}) are kept between moves. */
    private static final AlignedBufferPool SHARED_POOL = new AlignedBufferPool(BUFFER_BYTES, ALIGNMENT, 2 * BUFFERS);

    private final ByteBuffer[] buffers = new ByteBuffer[BUFFERS];
    private final CompletableFuture<?>[] writes = new CompletableFuture<?>[BUFFERS];
    private final TransferWorker thread;
    /** Ends the transfer thread's waits for a write (a disk that does not answer holds no cancelled transfer). */
    private final CancelSignal cancel;

    private final AlignedBufferPool pool;
    private boolean spillWhenBehind;
    /** Whether the last {@link #take()} found the ring full. */
    private boolean behind;

    private long bufferedBytes;
    /** Bytes handed to {@link #write}. */
    private long handedBytes;
    /** Bytes whose write is done (or failed). */
    private final AtomicLong writtenBytes = new AtomicLong();

    private int next;
    /** The first write that failed; set by the write thread. */
    private volatile StagedWriteException failure;

    private final ChunkFaultHook faults;

    /**
     * @param spillWhenBehind whether a file whose writes fall behind goes on through the page cache (see the class
     *                        comment)
     */
    StagedWrites(String name, boolean spillWhenBehind) {
        this(name, spillWhenBehind, ChunkFaultHook.NONE, new CancelSignal());
    }

    /**
     * As {@link #StagedWrites(String, boolean)}, each write seen first by {@code faults} (tests), every wait for a
     * write ended by {@code cancel}.
     */
    StagedWrites(String name, boolean spillWhenBehind, ChunkFaultHook faults, CancelSignal cancel) {
        this(
                new TransferWorker("sluice-move-write-" + name, "a staged write of " + name, cancel),
                spillWhenBehind,
                SHARED_POOL,
                faults,
                cancel);
    }

    /** Writes on {@code thread}, which this closes, from buffers of {@code pool} ({@link #BUFFER_BYTES} each). */
    StagedWrites(TransferWorker thread, boolean spillWhenBehind, AlignedBufferPool pool) {
        this(thread, spillWhenBehind, pool, ChunkFaultHook.NONE, new CancelSignal());
    }

    /**
     * As {@link #StagedWrites(TransferWorker, boolean, AlignedBufferPool)}.
     *
     * @param faults sees each write before it is made ({@link ChunkFaultHook#NONE} outside tests)
     * @param cancel ends every wait for a write
     */
    StagedWrites(
            TransferWorker thread,
            boolean spillWhenBehind,
            AlignedBufferPool pool,
            ChunkFaultHook faults,
            CancelSignal cancel) {
        this.thread = thread;
        this.cancel = cancel;
        this.spillWhenBehind = spillWhenBehind;
        this.pool = pool;
        this.faults = faults;
    }

    /**
     * The next buffer to receive into, empty; waits for the write it last carried.
     *
     * @throws InterruptedIOException when the transfer was cancelled first
     */
    ByteBuffer take() throws IOException {
        CompletableFuture<?> previous = writes[next];
        behind = previous != null && !previous.isDone();
        if (previous != null) {
            await(previous);
            writes[next] = null;
        }
        awaitFailure();
        if (buffers[next] == null) {
            buffers[next] = pool.take();
        }
        return buffers[next].clear();
    }

    /**
     * Writes {@code buffer}, the one {@link #take()} returned last, from its position to its limit into {@code file}
     * at {@code position} on the write thread; the buffer is not touched again until then. When spilling and that
     * {@link #take()} found the ring full, {@code file} goes on through the page cache from this write on.
     */
    CompletableFuture<?> write(StagedFile file, ByteBuffer buffer, long position) {
        if (buffer != buffers[next]) {
            throw new IllegalStateException("write of a buffer that is not the one taken last");
        }
        if (behind && spillWhenBehind) {
            file.stopDirectWrites();
        }
        int bytes = buffer.remaining();
        if (!file.writesDirect()) {
            bufferedBytes += bytes;
        }
        handedBytes += bytes;
        CompletableFuture<?> write = thread.run(() -> {
            if (cancel.isCancelled()) { // its staging is removed next: the write would only hold the disk
                writtenBytes.addAndGet(bytes);
                return;
            }
            try {
                faults.beforeWrite(file.path(), position);
                file.write(buffer, position);
            } catch (Throwable e) { // an Error or RuntimeException fails the transfer as surely as an IOException
                if (failure == null) {
                    failure =
                            new StagedWriteException("writing " + file.path() + " at " + position + " failed: " + e, e);
                }
            } finally {
                writtenBytes.addAndGet(bytes);
            }
        });
        writes[next] = write;
        next = (next + 1) % BUFFERS;
        return write;
    }

    /** Bytes handed to {@link #write} whose write is not done yet. */
    long unwrittenBytes() {
        return handedBytes - writtenBytes.get();
    }

    /**
     * Whether a file whose write finds the ring full goes on through the page cache from then on (see the class
     * comment); a transfer may turn it on midway.
     */
    void spillWhenBehind(boolean spill) {
        this.spillWhenBehind = spill;
    }

    /** Bytes handed to a file that writes through the page cache (one that never had O_DIRECT counts too). */
    long bufferedBytes() {
        return bufferedBytes;
    }

    /**
     * The staged write failure behind {@code failure}, else the first one any of {@code lanes} (null ones skipped)
     * recorded; null when the disk took every write so far.
     */
    static StagedWriteException failureBehind(Exception failure, StagedWrites... lanes) {
        if (failure instanceof StagedWriteException disk) {
            return disk;
        }
        for (StagedWrites lane : lanes) {
            if (lane != null && lane.failure != null) {
                return lane.failure;
            }
        }
        return null;
    }

    /** Throws the first write failure, if any. */
    void awaitFailure() throws StagedWriteException {
        StagedWriteException failed = failure;
        if (failed != null) {
            throw failed;
        }
    }

    /**
     * Waits for {@code write} (one this returned) to be done.
     *
     * @throws InterruptedIOException when the transfer was cancelled, or the thread interrupted, first
     */
    void await(CompletableFuture<?> write) throws IOException {
        if (!cancel.awaitUnlessCancelled(write, 0)) {
            throw new InterruptedIOException(
                    cancel.isCancelled()
                            ? "cancelled waiting for a staged write"
                            : "interrupted waiting for a staged write");
        }
        try {
            write.get();
        } catch (InterruptedException e) { // not reached: the write is done
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a staged write");
        } catch (ExecutionException e) {
            throw new StagedWriteException("staged write failed: " + e.getCause(), e.getCause());
        }
    }

    /** Whether the transfer these writes are for was cancelled. */
    boolean cancelled() {
        return cancel.isCancelled();
    }

    /** Completes once every write handed to {@link #write} so far is done (see {@link TransferWorker#drained()}). */
    CompletableFuture<Void> drained() {
        return thread.drained();
    }

    /**
     * Stops the thread after the writes already submitted, waiting for them at most 30 s and not at all once the
     * transfer was cancelled, and gives the buffers back to the pool once no write can touch them any more: now, or
     * when the last write returns.
     */
    @Override
    public void close() {
        thread.close();
        var unused = thread.drained().thenRun(this::releaseBuffers);
    }

    private void releaseBuffers() {
        for (int i = 0; i < BUFFERS; i++) {
            if (buffers[i] != null) {
                pool.release(buffers[i]);
                buffers[i] = null;
            }
        }
    }
}
