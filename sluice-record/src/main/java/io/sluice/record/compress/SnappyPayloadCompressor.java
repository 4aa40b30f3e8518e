package io.sluice.record.compress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.xerial.snappy.Snappy;

/**
 * xerial-framed snappy as Kafka's Java producer writes it: the 16-byte header, then 32 KiB
 * blocks each prefixed by its big-endian compressed length.
 *
 * <p>Not thread-safe; one per validator.
 */
public final class SnappyPayloadCompressor implements PayloadCompressor {

    private static final byte[] XERIAL_HEADER = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1};
    /** SnappyOutputStream's default block size, which Kafka uses. */
    private static final int BLOCK_SIZE = 32 * 1024;

    @Override
    public int maxCompressedLength(int length) {
        int blocks = Math.max(1, (length + BLOCK_SIZE - 1) / BLOCK_SIZE);
        long bound = XERIAL_HEADER.length + (long) blocks * (Integer.BYTES + Snappy.maxCompressedLength(BLOCK_SIZE));
        return (int) Math.min(Integer.MAX_VALUE - 8, bound);
    }

    @Override
    public int compress(ByteBuffer source, int from, int to, ByteBuffer target, int at) {
        target.put(at, XERIAL_HEADER);
        int out = at + XERIAL_HEADER.length;
        try {
            for (int block = from; block < to; block += BLOCK_SIZE) {
                int blockEnd = Math.min(to, block + BLOCK_SIZE);
                source.limit(blockEnd).position(block);
                target.limit(target.capacity()).position(out + Integer.BYTES);
                int written = Snappy.compress(source, target);
                target.putInt(out, written);
                out += Integer.BYTES + written;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("snappy failed on valid input", e);
        }
        return out - at;
    }

    @Override
    public void close() {
        // snappy-java keeps no per-stream native state.
    }
}
