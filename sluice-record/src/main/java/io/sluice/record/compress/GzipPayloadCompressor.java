package io.sluice.record.compress;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * One gzip member per payload (the header GZIPOutputStream writes, raw deflate at the default
 * level, CRC-32 and size trailer) through one reused {@link Deflater}.
 *
 * <p>Not thread-safe; one per validator.
 */
public final class GzipPayloadCompressor implements PayloadCompressor {

    private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 0};
    private static final int TRAILER_LENGTH = 8;

    private final CRC32 crc = new CRC32();
    private Deflater deflater;

    @Override
    public int maxCompressedLength(int length) {
        // zlib's deflateBound for stored blocks, plus the gzip header and trailer.
        long bound =
                (long) length + (length >> 12) + (length >> 14) + (length >> 25) + 13 + HEADER.length + TRAILER_LENGTH;
        return (int) Math.min(Integer.MAX_VALUE - 8, bound);
    }

    @Override
    public int compress(ByteBuffer source, int from, int to, ByteBuffer target, int at) {
        if (deflater == null) {
            deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        } else {
            deflater.reset();
        }
        target.put(at, HEADER);
        source.limit(to).position(from);
        crc.reset();
        crc.update(source);
        source.limit(to).position(from);
        deflater.setInput(source);
        deflater.finish();
        target.limit(target.capacity()).position(at + HEADER.length);
        while (!deflater.finished()) {
            if (deflater.deflate(target) == 0 && !target.hasRemaining()) {
                throw new IllegalStateException("deflate output exceeded its bound for " + (to - from) + " bytes");
            }
        }
        int trailer = target.position();
        ByteOrder order = target.order();
        target.order(ByteOrder.LITTLE_ENDIAN);
        target.putInt(trailer, (int) crc.getValue());
        target.putInt(trailer + Integer.BYTES, to - from);
        target.order(order);
        return trailer + TRAILER_LENGTH - at;
    }

    @Override
    public void close() {
        if (deflater != null) {
            deflater.end();
            deflater = null;
        }
    }
}
