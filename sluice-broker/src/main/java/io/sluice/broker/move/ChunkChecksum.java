package io.sluice.broker.move;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * CRC-32C of a file range on the source, read through one reused direct buffer (off-heap; the bytes are in the page
 * cache, about to be sent by sendfile). Not thread-safe; one per thread.
 */
final class ChunkChecksum {
    private static final int READ_BYTES = 64 * 1024;

    private final ByteBuffer buffer = ByteBuffer.allocateDirect(READ_BYTES);
    private final CRC32C crc = new CRC32C();

    /** @throws IOException also when the file ends inside the range (truncated under the transfer) */
    int of(FileChannel file, long position, int length) throws IOException {
        crc.reset();
        long at = position;
        long end = position + length;
        while (at < end) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), end - at));
            int read = file.read(buffer, at);
            if (read <= 0) {
                throw new IOException("file ends at " + at + ", inside the chunk [" + position + ", " + end + ")");
            }
            buffer.flip();
            crc.update(buffer);
            at += read;
        }
        return (int) crc.getValue();
    }
}
