package io.sluice.broker.move;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Staging directories of cancelled transfers whose removal waits for their disk to return a write or a finish it held
 * up: the staged files are still open there, so no transfer of the same partition may open the directory before it
 * is gone (it would resume into files the removal then deletes), and discarding it is left to that removal.
 *
 * <p>Thread-safe (one registry per JVM, keyed by the staging directory's absolute path).
 */
final class StagingRemovals {
    private static final Logger LOG = LoggerFactory.getLogger(StagingRemovals.class);
    private static final Map<Path, CompletableFuture<Void>> PENDING = new ConcurrentHashMap<>();

    /** Removes staging: deletes the directory, or throws. */
    @FunctionalInterface
    interface Removal {
        void remove() throws IOException;
    }

    private StagingRemovals() {}

    /** Runs {@code removal} of {@code partitionDir}'s staging once {@code idle} completes (a failure is logged). */
    static void removeWhen(CompletableFuture<Void> idle, Path partitionDir, Removal removal) {
        Path key = keyOf(partitionDir);
        CompletableFuture<Void> removed = new CompletableFuture<>();
        PENDING.put(key, removed);
        var unused = idle.whenComplete((done, failed) -> {
            try {
                removal.remove();
            } catch (IOException | RuntimeException e) {
                LOG.warn("{}: staging not removed; it is when the partition next follows", key, e);
            } finally {
                PENDING.remove(key, removed);
                removed.complete(null);
            }
        });
    }

    /** The removal of {@code partitionDir}'s staging that is still waiting for its disk, or null. */
    static CompletableFuture<Void> pending(Path partitionDir) {
        return PENDING.get(keyOf(partitionDir));
    }

    private static Path keyOf(Path partitionDir) {
        return StagingArea.dirOf(partitionDir).toAbsolutePath().normalize();
    }
}
