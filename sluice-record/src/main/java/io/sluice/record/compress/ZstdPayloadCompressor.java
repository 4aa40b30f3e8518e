package io.sluice.record.compress;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.nio.ByteBuffer;

/**
 * One zstd frame per payload at Kafka's default level 3, through one reused native context.
 *
 * <p>Not thread-safe; one per validator.
 */
public final class ZstdPayloadCompressor implements PayloadCompressor {

    /** Kafka's default zstd level (compression.zstd.level). */
    public static final int DEFAULT_LEVEL = 3;

    private ZstdCompressCtx context;

    @Override
    public int maxCompressedLength(int length) {
        return (int) Math.min(Integer.MAX_VALUE - 8, Zstd.compressBound(length));
    }

    @Override
    public int compress(ByteBuffer source, int from, int to, ByteBuffer target, int at) {
        if (context == null) {
            context = new ZstdCompressCtx().setLevel(DEFAULT_LEVEL);
        }
        return context.compressDirectByteBuffer(target, at, target.capacity() - at, source, from, to - from);
    }

    @Override
    public void close() {
        if (context != null) {
            context.close();
            context = null;
        }
    }
}
