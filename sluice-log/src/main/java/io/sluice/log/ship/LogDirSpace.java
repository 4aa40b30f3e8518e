package io.sluice.log.ship;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a log directory has room for a partition about to be moved in. Stateless; thread-safe.
 */
public final class LogDirSpace {
    private LogDirSpace() {}

    /**
     * True when the file store of {@code logDir} has at least {@code partitionBytes + marginBytes} usable bytes
     * (the margin covers the tail follower fetch adds and the other partitions' growth meanwhile).
     */
    public static boolean hasRoom(Path logDir, long partitionBytes, long marginBytes) throws IOException {
        return usableBytes(logDir) - marginBytes >= partitionBytes;
    }

    /** Bytes the JVM may still write to the file store of {@code logDir} (nearest existing ancestor). */
    public static long usableBytes(Path logDir) throws IOException {
        Path existing = logDir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            throw new IOException("no existing ancestor of " + logDir);
        }
        FileStore store = Files.getFileStore(existing);
        return store.getUsableSpace();
    }
}
