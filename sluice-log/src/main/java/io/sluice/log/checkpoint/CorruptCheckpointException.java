package io.sluice.log.checkpoint;

import java.io.IOException;
import java.nio.file.Path;

/** A checkpoint file failed to parse; the caller treats every entry as absent (full recovery). */
public final class CorruptCheckpointException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptCheckpointException(Path file, int lineNumber, String problem) {
        super(file.getFileName() + " line " + lineNumber + ": " + problem);
    }
}
