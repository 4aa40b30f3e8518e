package io.sluice.codec.compress;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.nio.ByteBuffer;

/**
 * zstd frames (with content checksum) through one {@link ZstdCompressCtx}; the two direct chunks are allocated once
 * per compressor, never per frame. Not thread-safe; one per writer or codec.
 */
public final class ZstdStreamCompressor extends StreamCompressor {
    /** Level 3 is zstd's default: the speed/ratio knee for control-plane state. */
    private static final int LEVEL = 3;

    private final ZstdCompressCtx ctx = new ZstdCompressCtx();
    private final ByteBuffer input;
    private final ByteBuffer output;

    ZstdStreamCompressor(int chunkBytes) {
        this.input = ByteBuffer.allocateDirect(chunkBytes);
        this.output = ByteBuffer.allocateDirect((int) Math.max(chunkBytes, Zstd.compressBound(chunkBytes) / 4));
        configure();
    }

    private void configure() {
        ctx.setLevel(LEVEL);
        ctx.setChecksum(true);
    }

    @Override
    public ByteBuffer input() {
        return input;
    }

    @Override
    public void drainInput(ByteSink out) {
        input.flip();
        while (input.hasRemaining()) {
            ctx.compressDirectByteBufferStream(output, input, EndDirective.CONTINUE);
            flushOutput(out);
        }
        input.clear();
    }

    @Override
    public void finish(ByteSink out) {
        input.flip();
        boolean done;
        do {
            done = ctx.compressDirectByteBufferStream(output, input, EndDirective.END);
            flushOutput(out);
        } while (!done);
        input.clear();
    }

    private void flushOutput(ByteSink out) {
        output.flip();
        if (output.hasRemaining()) {
            out.write(output);
        }
        output.clear();
    }

    @Override
    public void reset() {
        input.clear();
        output.clear();
        ctx.reset();
        configure();
    }

    @Override
    public void close() {
        ctx.close();
    }
}
