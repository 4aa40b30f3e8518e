package io.sluice.broker.move;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Test-only fault injection on the target. {@link #inFlight} sees payload bytes between socket and staging file
 * (flip one to corrupt a chunk in flight); {@link #afterChunkLanded} runs once a chunk is in the staging file and
 * before it is accepted (stop a source, crash, cancel at a known point); {@link #beforeWrite} runs before each staged
 * write (fail it, or hold it up, as a disk would); {@link #beforeFinish} before a complete file is finished (hold
 * it up as a slow fsync would); {@link #movedIn} after each file the install renames in (crash between two);
 * {@link #beforeStagingRemoved} before a stopped transfer removes its staging. The production default does nothing.
 * Called on the transfer thread, {@link #beforeWrite} on its write threads, {@link #beforeFinish} on its flush thread
 * too.
 */
interface ChunkFaultHook {
    ChunkFaultHook NONE = new ChunkFaultHook() {};

    /** A chunk has landed; what a test does at that point. */
    @FunctionalInterface
    interface Landed {
        void afterChunkLanded(FileChannel file, long position, int length, long chunkNumber) throws IOException;
    }

    /** A hook acting once chunks have landed. */
    static ChunkFaultHook afterLanding(Landed action) {
        return new ChunkFaultHook() {
            @Override
            public void afterChunkLanded(FileChannel file, long position, int length, long chunkNumber)
                    throws IOException {
                action.afterChunkLanded(file, position, length, chunkNumber);
            }
        };
    }

    /**
     * @param bytes       the run about to be written (may be changed in place)
     * @param position    its file position
     * @param chunkNumber 0-based count of chunks this client received before this one (including rejected ones)
     */
    default void inFlight(ByteBuffer bytes, long position, long chunkNumber) {}

    /** @param chunkNumber as for {@link #inFlight} */
    default void afterChunkLanded(FileChannel file, long position, int length, long chunkNumber) throws IOException {}

    /** A received run is about to be written to {@code file} at {@code position}; throw to fail the write. */
    default void beforeWrite(Path file, long position) throws IOException {}

    /**
     * The complete staged {@code file} is about to be finished (its index files written, forced when the install is
     * durable): on the flush thread as soon as a segment is complete, else on the transfer thread before the install.
     */
    default void beforeFinish(Path file) {}

    /** The install renamed the staged {@code file} into the partition directory; throw to crash right there. */
    default void movedIn(Path file) throws IOException {}

    /** A transfer that stopped is about to remove its staging directory {@code dir}; throw to fail the removal. */
    default void beforeStagingRemoved(Path dir) throws IOException {}
}
