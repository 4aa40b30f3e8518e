package io.sluice.codec.compress;

import io.sluice.codec.CodecConfig;
import io.sluice.codec.error.LimitExceededException;
import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.error.TruncatedInputException;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageRegistry;
import io.sluice.codec.message.MessageWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Streams large state (a {@link Message} graph such as the cluster's partition map) straight through a compressor:
 * the message writer fills the compressor's input chunk, which is the coalescing buffer, and each full chunk is one
 * pass of native calls, so the uncompressed form never exists in memory. The output is a standard zlib stream or
 * zstd frame. Reading streams back the same way through bounded chunks, checking the configured size cap.
 *
 * <p>Owns one native compressor and decompressor per format, created lazily and reused; {@link #close()} ends them
 * deterministically. Not thread-safe; one per controller or broker thread that publishes or applies state.
 */
public final class StateCodec implements AutoCloseable {
    private final MessageRegistry registry;
    private final CodecConfig config;
    private final int coalesceBytes;
    private final StreamCompressor[] compressors = new StreamCompressor[Compression.values().length];
    private final StreamDecompressor[] decompressors = new StreamDecompressor[Compression.values().length];
    private final MessageWriter writer;
    private final MessageReader reader;
    private ByteBuffer inflated;

    /**
     * @param coalesceBytes size of the chunk that coalesces small field writes before each native compressor call
     */
    public StateCodec(MessageRegistry registry, CodecConfig config, int coalesceBytes) {
        if (coalesceBytes < 64) {
            throw new IllegalArgumentException("coalesceBytes must be >= 64, was " + coalesceBytes);
        }
        this.registry = registry;
        this.config = config;
        this.coalesceBytes = coalesceBytes;
        this.writer = new MessageWriter(config);
        this.reader = new MessageReader(registry, config);
    }

    public StateCodec(MessageRegistry registry) {
        this(registry, CodecConfig.DEFAULT, 16 << 10);
    }

    /**
     * Serializes {@code state} through the compressor into {@code out}.
     *
     * @return the uncompressed length
     */
    public long compress(Message state, Compression compression, ByteSink out) {
        StreamCompressor c = compressors[compression.ordinal()];
        if (c == null) {
            c = compressors[compression.ordinal()] = StreamCompressor.create(compression, coalesceBytes);
        }
        ByteBuffer chunk = c.input();
        long total = 0;
        boolean ok = false;
        writer.reset();
        try {
            writer.setBuffer(chunk);
            while (!writer.write(state)) {
                total += chunk.position();
                c.drainInput(out);
                writer.setBuffer(chunk);
            }
            total += chunk.position();
            c.finish(out);
            ok = true;
        } finally {
            if (!ok) {
                c.reset();
                writer.reset();
            }
        }
        return total;
    }

    /** Serializes {@code state} into a new array holding exactly the compressed frame. */
    public byte[] compress(Message state, Compression compression) {
        GrowableBytes out = new GrowableBytes("compressed state", 4096, Integer.MAX_VALUE - 8);
        compress(state, compression, out);
        return out.toByteArray();
    }

    /** Reads one message from a whole compressed frame. */
    public Message decompress(Compression compression, byte[] frame) {
        return decompress(compression, List.of(ByteBuffer.wrap(frame)));
    }

    /**
     * Reads one message from a compressed frame given as consecutive heap slices (e.g.
     * {@link io.sluice.codec.part.AssembledStream#payloads()}), never concatenating them.
     *
     * @throws io.sluice.codec.error.MalformedInputException on a corrupt, truncated or oversized frame, or bytes after it
     */
    public Message decompress(Compression compression, List<ByteBuffer> slices) {
        StreamDecompressor d = decompressors[compression.ordinal()];
        if (d == null) {
            d = decompressors[compression.ordinal()] = StreamDecompressor.create(compression, coalesceBytes);
        }
        if (inflated == null) {
            inflated = ByteBuffer.allocate(coalesceBytes);
        }
        d.reset();
        reader.reset();
        long total = 0;
        long cap = config.maxUncompressedFieldBytes();
        Message m = null;
        int slice = 0;
        while (m == null) {
            if (d.needsInput()) {
                if (slice == slices.size()) {
                    throw new TruncatedInputException("compressed state: " + compression + " input ends after " + total
                            + " uncompressed bytes, before the state message is complete");
                }
                ByteBuffer s = requireHeap(slices.get(slice++));
                d.setInput(s.array(), s.arrayOffset() + s.position(), s.remaining());
            }
            inflated.clear();
            int n = d.decompress(inflated);
            total += n;
            if (total > cap) {
                throw new LimitExceededException("compressed state uncompressed size", total, cap);
            }
            if (n == 0) {
                if (d.finished()) {
                    throw new TruncatedInputException("compressed state: frame ends after " + total
                            + " bytes, before the state message is complete");
                }
                if (!d.needsInput()) {
                    throw new MalformedInputException(
                            "compressed state: decoder made no progress after " + total + " bytes");
                }
                continue;
            }
            inflated.flip();
            reader.setBuffer(inflated);
            m = reader.read();
            if (m != null && inflated.hasRemaining()) {
                throw new MalformedInputException(
                        "compressed state: " + inflated.remaining() + " bytes follow the state message");
            }
        }
        inflated.clear();
        while (!d.finished()) {
            if (d.decompress(inflated) > 0) {
                throw new MalformedInputException("compressed state: bytes follow the state message");
            }
            if (!d.finished()) {
                if (!d.needsInput()) {
                    throw new MalformedInputException("compressed state: decoder made no progress at frame end");
                }
                if (slice == slices.size()) {
                    throw new TruncatedInputException("compressed state: frame is not terminated");
                }
                ByteBuffer s = requireHeap(slices.get(slice++));
                d.setInput(s.array(), s.arrayOffset() + s.position(), s.remaining());
            }
        }
        int trailing = d.remainingInput();
        while (slice < slices.size()) {
            trailing += slices.get(slice++).remaining();
        }
        if (trailing != 0) {
            throw new MalformedInputException("compressed state: " + trailing + " bytes follow the compressed frame");
        }
        return m;
    }

    private static ByteBuffer requireHeap(ByteBuffer s) {
        if (!s.hasArray()) {
            throw new IllegalArgumentException("compressed state slices must be writable heap buffers (as parts are)");
        }
        return s;
    }

    public MessageRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        for (StreamCompressor c : compressors) {
            if (c != null) {
                c.close();
            }
        }
        for (StreamDecompressor d : decompressors) {
            if (d != null) {
                d.close();
            }
        }
        writer.close();
        reader.close();
    }
}
