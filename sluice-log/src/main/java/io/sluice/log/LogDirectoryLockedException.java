package io.sluice.log;

import java.io.IOException;
import java.nio.file.Path;

/** Another process (or another LogManager in this one) holds the log directory's lock file. */
public final class LogDirectoryLockedException extends IOException {
    private static final long serialVersionUID = 1L;

    public LogDirectoryLockedException(Path logDir) {
        super("log directory " + logDir + " is locked by another broker (lock file "
                + logDir.resolve(LogManager.LOCK_FILE) + "); stop the other broker or point log.dirs elsewhere");
    }
}
