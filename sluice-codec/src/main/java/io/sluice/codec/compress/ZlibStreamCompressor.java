package io.sluice.codec.compress;

import java.nio.ByteBuffer;
import java.util.zip.Deflater;

/**
 * zlib (RFC 1950) through the JDK {@link Deflater}, heap chunks only. Not thread-safe; one per writer or codec.
 */
public final class ZlibStreamCompressor extends StreamCompressor {
    private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, false);
    private final ByteBuffer input;
    private final byte[] output;

    ZlibStreamCompressor(int chunkBytes) {
        this.input = ByteBuffer.allocate(chunkBytes);
        this.output = new byte[chunkBytes];
    }

    @Override
    public ByteBuffer input() {
        return input;
    }

    @Override
    public void drainInput(ByteSink out) {
        input.flip();
        deflater.setInput(input);
        while (!deflater.needsInput()) {
            int n = deflater.deflate(output, 0, output.length, Deflater.NO_FLUSH);
            if (n > 0) {
                out.write(output, 0, n);
            }
        }
        input.clear();
    }

    @Override
    public void finish(ByteSink out) {
        input.flip();
        deflater.setInput(input);
        deflater.finish();
        while (!deflater.finished()) {
            int n = deflater.deflate(output, 0, output.length, Deflater.NO_FLUSH);
            if (n > 0) {
                out.write(output, 0, n);
            }
        }
        input.clear();
        deflater.reset();
    }

    @Override
    public void reset() {
        input.clear();
        deflater.reset();
    }

    @Override
    public void close() {
        deflater.end();
    }
}
