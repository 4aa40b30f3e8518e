package io.sluice.log.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Reading and writing whole index files with positional IO. Stateless; thread-safe. */
final class IndexFiles {
    private IndexFiles() {
    }

    /**
     * Reads a whole index file whose size was already checked against a cap, so the allocation is bounded.
     */
    static ByteBuffer readAll(Path file, long size) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) size);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, buffer.position()) < 0) {
                    break;
                }
            }
        }
        buffer.flip();
        return buffer;
    }

    static void writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
    }
}
