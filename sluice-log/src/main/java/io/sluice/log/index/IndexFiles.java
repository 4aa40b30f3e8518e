package io.sluice.log.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Reading and writing whole index files with positional IO. Stateless; thread-safe. */
final class IndexFiles {
    private IndexFiles() {}

    /** A read-only mapping of the first {@code size} bytes; the mapping outlives the channel. */
    static ByteBuffer mapReadOnly(Path file, long size) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
        }
    }

    static void writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
    }
}
