package io.sluice.broker.move;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * Test-only fault injection on the target: called after a chunk's payload landed in staging and before its checksum
 * is checked, so a test can flip bytes (a chunk corrupted in flight) or stop a source at a known point. The
 * production default does nothing. Called on the transfer thread.
 */
@FunctionalInterface
interface ChunkFaultHook {
    ChunkFaultHook NONE = (file, position, length, chunkNumber) -> { };

    /**
     * @param chunkNumber 0-based count of chunks received by this client so far (including rejected ones)
     */
    void afterChunkLanded(FileChannel file, long position, int length, long chunkNumber) throws IOException;
}
