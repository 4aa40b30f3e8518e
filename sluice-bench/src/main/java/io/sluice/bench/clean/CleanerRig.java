package io.sluice.bench.clean;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * One system's log and cleaner, driven by {@link LogCleanerBenchmark}: a cleaner that lives for the whole trial (as a
 * broker's cleaner thread does, so its offset map and buffers are reused), and a fresh log per invocation.
 * Not thread-safe; used by the benchmark thread only.
 */
interface CleanerRig extends AutoCloseable {

    /** Creates empty partition {@code n}'s log and returns its directory. */
    Path create(int n) throws IOException;

    /** Appends one batch whose offsets are already assigned, as a follower does. */
    void append(ByteBuffer batch) throws IOException;

    /** Fsyncs the log, so no write-back of the setup runs during the clean. */
    void flush() throws IOException;

    /** Cleans the log once, from its start to its active segment, and returns the new first dirty offset. */
    long clean() throws IOException;

    /** What the last clean did, in the cleaner's own counters. */
    String lastCleanStats();

    /** Threads whose allocation is the cleaner's (the benchmark thread is counted by the caller). */
    long[] cleanerThreadIds();

    /** Bytes the cleaner's offset map holds between cleans once it has cleaned {@code input}. */
    long offsetMapBytes(DirtyLog input);

    /** Closes the log and deletes its files. */
    void deleteLog() throws IOException;

    @Override
    void close() throws Exception;
}
