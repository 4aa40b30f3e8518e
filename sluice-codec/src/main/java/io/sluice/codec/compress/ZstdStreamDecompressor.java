package io.sluice.codec.compress;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import io.sluice.codec.error.MalformedInputException;
import java.nio.ByteBuffer;

/**
 * zstd frames through one {@link ZstdDecompressCtx}; heap input is staged through a direct chunk and output through
 * another, both allocated once per decompressor. Not thread-safe; one per reader or codec.
 */
public final class ZstdStreamDecompressor extends StreamDecompressor {
    private final ZstdDecompressCtx ctx = new ZstdDecompressCtx();
    /** Read mode: compressed bytes staged for the native call. */
    private final ByteBuffer src;
    /** Read mode: decompressed bytes not yet handed out. */
    private final ByteBuffer dst;

    private byte[] in;
    private int inPos;
    private int inEnd;
    private boolean frameDone;

    ZstdStreamDecompressor(int chunkBytes) {
        src = ByteBuffer.allocateDirect(chunkBytes).flip();
        dst = ByteBuffer.allocateDirect(chunkBytes).flip();
    }

    @Override
    public void reset() {
        ctx.reset();
        src.clear().flip();
        dst.clear().flip();
        in = null;
        inPos = 0;
        inEnd = 0;
        frameDone = false;
    }

    @Override
    public void setInput(byte[] bytes, int off, int len) {
        in = bytes;
        inPos = off;
        inEnd = off + len;
    }

    @Override
    public boolean needsInput() {
        return !dst.hasRemaining() && !src.hasRemaining() && inPos == inEnd;
    }

    @Override
    public int decompress(ByteBuffer out) {
        int start = out.position();
        while (out.hasRemaining()) {
            if (dst.hasRemaining()) {
                int n = Math.min(dst.remaining(), out.remaining());
                int lim = dst.limit();
                dst.limit(dst.position() + n);
                out.put(dst);
                dst.limit(lim);
                continue;
            }
            if (frameDone) {
                break;
            }
            if (!src.hasRemaining()) {
                if (inPos == inEnd) {
                    break;
                }
                int n = Math.min(src.capacity(), inEnd - inPos);
                src.clear();
                src.put(in, inPos, n).flip();
                inPos += n;
            }
            int srcBefore = src.position();
            dst.clear();
            try {
                frameDone = ctx.decompressDirectByteBufferStream(dst, src);
            } catch (ZstdException e) {
                throw new MalformedInputException("zstd frame: " + e.getMessage(), e);
            }
            dst.flip();
            if (!dst.hasRemaining() && src.position() == srcBefore && !frameDone) {
                throw new MalformedInputException(
                        "zstd frame: decoder made no progress at compressed byte " + (inPos - src.remaining()));
            }
        }
        return out.position() - start;
    }

    @Override
    public boolean finished() {
        return frameDone && !dst.hasRemaining();
    }

    @Override
    public int remainingInput() {
        return src.remaining() + (inEnd - inPos);
    }

    @Override
    public void close() {
        ctx.close();
    }
}
