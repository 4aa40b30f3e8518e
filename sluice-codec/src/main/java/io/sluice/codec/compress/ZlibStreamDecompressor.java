package io.sluice.codec.compress;

import io.sluice.codec.error.MalformedInputException;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * zlib (RFC 1950) through the JDK {@link Inflater}. Not thread-safe; one per reader or codec.
 */
public final class ZlibStreamDecompressor extends StreamDecompressor {
    private final Inflater inflater = new Inflater(false);

    @Override
    public void reset() {
        inflater.reset();
    }

    @Override
    public void setInput(byte[] src, int off, int len) {
        inflater.setInput(src, off, len);
    }

    @Override
    public boolean needsInput() {
        return inflater.needsInput();
    }

    @Override
    public int decompress(ByteBuffer out) {
        if (inflater.finished()) {
            return 0;
        }
        try {
            int n = inflater.inflate(out);
            if (n == 0 && inflater.needsDictionary()) {
                throw new MalformedInputException("zlib stream: requires a preset dictionary, none is used here");
            }
            return n;
        } catch (DataFormatException e) {
            throw new MalformedInputException("zlib stream: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean finished() {
        return inflater.finished();
    }

    @Override
    public int remainingInput() {
        return inflater.getRemaining();
    }

    @Override
    public void close() {
        inflater.end();
    }
}
