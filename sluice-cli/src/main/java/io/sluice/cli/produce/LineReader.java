package io.sluice.cli.produce;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads '\n'-terminated lines of bytes (a last line without '\n' counts) into one reused,
 * growing buffer; lines longer than the limit are refused instead of growing without bound.
 * Not thread-safe; one per input stream.
 */
public final class LineReader {
    private static final int INITIAL_CAPACITY = 1024;
    private static final int READ_CHUNK = 64 * 1024;

    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] chunk = new byte[READ_CHUNK];
    private int chunkPosition;
    private int chunkLimit;
    private byte[] line = new byte[INITIAL_CAPACITY];
    private int lineLength;
    private long lineNumber;

    public LineReader(InputStream in, int maxLineBytes) {
        this.in = in;
        this.maxLineBytes = maxLineBytes;
    }

    /**
     * Reads the next line (without its '\n').
     *
     * @return false at end of input
     * @throws IOException when reading fails or a line exceeds the limit
     */
    public boolean next() throws IOException {
        lineLength = 0;
        boolean sawAny = false;
        while (true) {
            if (chunkPosition == chunkLimit) {
                chunkLimit = in.read(chunk, 0, chunk.length);
                chunkPosition = 0;
                if (chunkLimit <= 0) {
                    chunkLimit = 0;
                    if (sawAny) {
                        lineNumber++;
                    }
                    return sawAny;
                }
            }
            sawAny = true;
            byte b = chunk[chunkPosition++];
            if (b == '\n') {
                lineNumber++;
                return true;
            }
            append(b);
        }
    }

    /** The current line's bytes; valid in [0, {@link #length()}) until the next call to {@link #next()}. */
    public byte[] bytes() {
        return line;
    }

    public int length() {
        return lineLength;
    }

    /** 1-based number of the current line. */
    public long lineNumber() {
        return lineNumber;
    }

    private void append(byte b) throws IOException {
        if (lineLength == maxLineBytes) {
            throw new IOException("line " + (lineNumber + 1) + " is longer than " + maxLineBytes + " bytes");
        }
        if (lineLength == line.length) {
            line = Arrays.copyOf(line, (int) Math.min((long) line.length * 2, maxLineBytes));
        }
        line[lineLength++] = b;
    }
}
