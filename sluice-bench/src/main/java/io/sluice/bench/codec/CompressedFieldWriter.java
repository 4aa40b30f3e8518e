package io.sluice.bench.codec;

import io.sluice.codec.compress.Compression;
import io.sluice.codec.compress.GrowableBytes;
import io.sluice.codec.compress.StreamCompressor;
import io.sluice.codec.error.LimitExceededException;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageWriter;
import java.nio.ByteBuffer;

/**
 * Writes a nested message as a compressed field of a {@link MessageWriter} message (the seed IGNITE-28836's compressed
 * fields): the first call streams the whole message through one reused nested writer and compressor into one reused
 * heap scratch (no uncompressed copy, no direct buffer per field), later calls copy the compressed bytes into the
 * buffers, resuming where a full one stopped them. On the wire: the compression id and the uncompressed length as
 * zigzag varints ({@code 0} alone for a null field), then the compressed bytes as a byte array. No product message has
 * a compressed field (sluice-cluster compresses its state as one stream, {@code StateCodec}), so this lives beside its
 * benchmark, {@link CompressedFieldBenchmark}; {@link CompressedFieldReader} reads it.
 *
 * <p>Not thread-safe; one per {@link MessageWriter}, which writes one compressed field at a time. {@link #close()}
 * ends the native compressors.
 */
public final class CompressedFieldWriter implements AutoCloseable {
    private final CompressedFieldConfig config;
    private final GrowableBytes compressed;
    private final StreamCompressor[] compressors = new StreamCompressor[Compression.values().length];
    private final MessageWriter nested = new MessageWriter();

    /** Field in progress: 0 not compressed yet, 1 id pending, 2 length pending, 3 bytes. */
    private int phase;

    private Compression compressing;
    private long uncompressedLength;

    public CompressedFieldWriter() {
        this(CompressedFieldConfig.DEFAULT);
    }

    public CompressedFieldWriter(CompressedFieldConfig config) {
        this.config = config;
        this.compressed =
                new GrowableBytes("compressed field", config.scratchInitialBytes(), config.maxCompressedBytes());
    }

    /**
     * Writes (or continues writing) {@code v} compressed with {@code compression} into {@code w}'s buffer; {@code null}
     * allowed. Called from a message's {@code writeTo}, like {@code w.writeMessage}.
     *
     * @return {@code true} when the field is complete; {@code false} when the buffer is full
     */
    public boolean write(MessageWriter w, Message v, Compression compression) {
        if (phase == 0) {
            if (v == null) {
                return w.writeInt(0);
            }
            compressInto(v, compression);
            phase = 1;
        }
        if (phase == 1) {
            if (!w.writeInt(compressing.id())) {
                return false;
            }
            phase = 2;
        }
        if (phase == 2) {
            if (!w.writeLong(uncompressedLength)) {
                return false;
            }
            phase = 3;
        }
        if (!w.writeByteArray(compressed.array(), 0, compressed.size())) {
            return false;
        }
        phase = 0;
        compressed.trim(config.scratchRetainBytes());
        return true;
    }

    /** Abandons a field in progress, with {@link MessageWriter#reset()} (after an exception). */
    public void reset() {
        phase = 0;
        nested.reset();
    }

    /** Current capacity of the compressed-output scratch, for tests and the benchmark's report. */
    public int scratchCapacity() {
        return compressed.capacity();
    }

    /** Drops the compressed-output scratch back to its initial size. */
    public void trimScratch() {
        compressed.trim(0);
    }

    private void compressInto(Message v, Compression compression) {
        StreamCompressor compressor = compressor(compression);
        MessageWriter w = nested;
        w.reset();
        compressed.clear();
        ByteBuffer chunk = compressor.input();
        long total = 0;
        boolean ok = false;
        try {
            w.setBuffer(chunk);
            while (!w.write(v)) {
                total += chunk.position();
                requireUncompressedWithinCap(total);
                compressor.drainInput(compressed);
                w.setBuffer(chunk);
            }
            total += chunk.position();
            requireUncompressedWithinCap(total);
            compressor.finish(compressed);
            ok = true;
        } finally {
            if (!ok) {
                compressor.reset();
                w.reset();
            }
        }
        compressing = compression;
        uncompressedLength = total;
    }

    private void requireUncompressedWithinCap(long total) {
        if (total > config.maxUncompressedBytes()) {
            throw new LimitExceededException(
                    "compressed field uncompressed size", total, config.maxUncompressedBytes());
        }
    }

    private StreamCompressor compressor(Compression c) {
        StreamCompressor sc = compressors[c.ordinal()];
        if (sc == null) {
            sc = compressors[c.ordinal()] = StreamCompressor.create(c, config.chunkBytes());
        }
        return sc;
    }

    /** Ends the native compressors. */
    @Override
    public void close() {
        for (StreamCompressor c : compressors) {
            if (c != null) {
                c.close();
            }
        }
        nested.close();
    }
}
