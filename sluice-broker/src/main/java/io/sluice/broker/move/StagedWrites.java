package io.sluice.broker.move;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The write side of one transfer: a ring of block-aligned direct buffers that received payload is read into, and one
 * thread that writes each filled buffer into its staged file ({@link StagedFile#write}, O_DIRECT where it can) while
 * the transfer thread receives and checks the next one. A buffer comes back for reading once its write is done; a
 * write that failed is reported by the next {@link #take()} or {@link #awaitFailure()}. Writes run in submission
 * order on the one thread, so a file's last write done means all of its writes are done ({@link StagedFile} waits
 * for that before it reads, truncates, finishes or closes the file).
 *
 * <p>When the disk falls behind the wire and the move need not reach the disk before its install ({@code
 * spillWhenBehind}: the partition leaves flushing to the OS), the transfer does not wait for the ring: the next payload
 * goes into a spare buffer and from there into the page cache, written on the transfer thread at once
 * ({@link StagedFile#writeBuffered}), while the write thread keeps the disk busy with the ring. A disk that keeps up
 * takes everything with O_DIRECT (no copy into the page cache); a slower one no longer sets the move's pace.
 *
 * <p>Not thread-safe; called by the transfer thread only (the writes run on one daemon thread of its own).
 */
final class StagedWrites implements AutoCloseable {
    /** Bytes per buffer, and per write: O_DIRECT writes of 1 MiB run at the disk's speed, 256 KiB ones far below it. */
    static final int BUFFER_BYTES = 1 << 20;
    /** The buffers start on this boundary, so whole runs can be written with O_DIRECT. */
    static final int ALIGNMENT = 4096;
    /** Buffers in the ring: one being received while the others are written. */
    private static final int BUFFERS = 3;

    private final ByteBuffer[] buffers = new ByteBuffer[BUFFERS];
    private final Future<?>[] writes = new Future<?>[BUFFERS];
    private final TransferWorker thread;
    private final boolean spillWhenBehind;
    /** The spare buffer a payload goes into when the ring is full (allocated on the first spill). */
    private ByteBuffer spare;
    /** Whether {@link #take()} last returned {@link #spare}. */
    private boolean spilling;

    private long spilledBytes;
    private int next;
    /** The first write that failed; set by the write thread. */
    private volatile IOException failure;

    /**
     * @param spillWhenBehind whether a full ring sends the next payload through the page cache instead of waiting for
     *                        the disk (see the class comment)
     */
    StagedWrites(String name, boolean spillWhenBehind) {
        this(new TransferWorker("sluice-move-write-" + name, "a staged write of " + name), spillWhenBehind);
    }

    /** Writes on {@code thread}, which this closes. */
    StagedWrites(TransferWorker thread, boolean spillWhenBehind) {
        this.thread = thread;
        this.spillWhenBehind = spillWhenBehind;
    }

    /**
     * The next buffer to receive into, empty: the ring's next one once the write it last carried is done, or, when
     * spilling and that write is still running, the spare.
     */
    ByteBuffer take() throws IOException {
        awaitFailure();
        Future<?> previous = writes[next];
        if (previous != null && spillWhenBehind && !previous.isDone()) {
            if (spare == null) {
                spare = ByteBuffer.allocateDirect(BUFFER_BYTES + ALIGNMENT).alignedSlice(ALIGNMENT);
            }
            spilling = true;
            return spare.clear();
        }
        spilling = false;
        if (previous != null) {
            await(previous);
            writes[next] = null;
        }
        awaitFailure();
        if (buffers[next] == null) {
            buffers[next] = ByteBuffer.allocateDirect(BUFFER_BYTES + ALIGNMENT).alignedSlice(ALIGNMENT);
        }
        return buffers[next].clear();
    }

    /**
     * Writes {@code buffer}, the one {@link #take()} returned last, from its position to its limit into {@code file}
     * at {@code position}: a ring buffer on the write thread (the buffer is not touched again until then), the spare
     * through the page cache at once.
     *
     * @return the write on the write thread, or null when the spare was written at once
     */
    Future<?> write(StagedFile file, ByteBuffer buffer, long position) throws IOException {
        if (spilling) {
            if (buffer != spare) {
                throw new IllegalStateException("write of a buffer that is not the one taken last");
            }
            spilledBytes += buffer.remaining();
            file.writeBuffered(buffer, position);
            return null;
        }
        if (buffer != buffers[next]) {
            throw new IllegalStateException("write of a buffer that is not the one taken last");
        }
        Future<?> write = thread.executor().submit(() -> {
            try {
                file.write(buffer, position);
            } catch (IOException e) {
                if (failure == null) {
                    failure = new IOException("writing " + file.path() + " at " + position + " failed: " + e, e);
                }
            }
        });
        writes[next] = write;
        next = (next + 1) % BUFFERS;
        return write;
    }

    /** Bytes written through the page cache because the ring was full. */
    long spilledBytes() {
        return spilledBytes;
    }

    /** Throws the first write failure, if any. */
    void awaitFailure() throws IOException {
        IOException failed = failure;
        if (failed != null) {
            throw failed;
        }
    }

    /** Waits for {@code write} (one this returned) to be done. */
    static void await(Future<?> write) throws IOException {
        try {
            write.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a staged write");
        } catch (ExecutionException e) {
            throw new IOException("staged write failed: " + e.getCause(), e.getCause());
        }
    }

    /** Stops the thread after the writes already submitted, waiting for them at most 30 s. */
    @Override
    public void close() {
        thread.close();
    }
}
