package io.sluice.log.producer;

import java.io.IOException;
import java.nio.file.Path;

/** A producer snapshot failed its checks; the caller falls back to an older snapshot or a log scan. */
public final class CorruptSnapshotException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptSnapshotException(Path file, String problem) {
        super(file.getFileName() + ": " + problem);
    }
}
