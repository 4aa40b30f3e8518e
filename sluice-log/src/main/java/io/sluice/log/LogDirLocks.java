package io.sluice.log;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link LogManager#LOCK_FILE} lock per log directory, so two brokers never share one; held until released.
 * Not thread-safe; owned by one {@link LogManager} and used under its lifecycle lock.
 */
final class LogDirLocks {
    private static final Logger LOG = LoggerFactory.getLogger(LogManager.class);

    private final List<FileChannel> lockChannels = new ArrayList<>();

    /**
     * Creates and locks every directory of {@code logDirs}; nothing when they are locked already. On a directory
     * another process holds, releases the locks taken so far.
     *
     * @throws LogDirectoryLockedException when another broker holds a directory
     */
    void lockAll(List<Path> logDirs) throws IOException {
        if (!lockChannels.isEmpty()) {
            return;
        }
        for (Path logDir : logDirs) {
            Files.createDirectories(logDir);
            lock(logDir);
        }
    }

    private void lock(Path logDir) throws IOException {
        FileChannel channel = FileChannel.open(
                logDir.resolve(LogManager.LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            channel.close();
            releaseAll();
            throw new LogDirectoryLockedException(logDir);
        }
        lockChannels.add(channel);
    }

    /** Releases every lock held (a failure is logged, the others are still released). */
    void releaseAll() {
        for (FileChannel channel : lockChannels) {
            try {
                channel.close();
            } catch (IOException e) {
                LOG.warn("releasing a log directory lock failed", e);
            }
        }
        lockChannels.clear();
    }
}
