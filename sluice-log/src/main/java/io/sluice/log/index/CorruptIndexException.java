package io.sluice.log.index;

import java.io.IOException;
import java.nio.file.Path;

/** An index file failed its sanity check; the caller rebuilds it from the log. */
public final class CorruptIndexException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptIndexException(Path file, String problem) {
        super(file.getFileName() + ": " + problem);
    }
}
