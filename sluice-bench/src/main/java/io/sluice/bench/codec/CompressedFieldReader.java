package io.sluice.bench.codec;

import io.sluice.codec.compress.Compression;
import io.sluice.codec.compress.StreamDecompressor;
import io.sluice.codec.error.LimitExceededException;
import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.error.TruncatedInputException;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageRegistry;
import java.nio.ByteBuffer;

/**
 * Reads the compressed fields {@link CompressedFieldWriter} writes: the compression id and the declared uncompressed
 * size are checked before anything is allocated, the compressed bytes are read as a byte array (allocated no larger
 * than the bytes present, capped by the reader's {@code maxArrayLength}), then inflated in chunks of
 * {@link CompressedFieldConfig#chunkBytes()} into one reused nested reader of {@code registry}'s messages, checking the
 * declared size as bytes appear. Bad input raises a {@link MalformedInputException} subtype.
 *
 * <p>Not thread-safe; one per {@link MessageReader}, which reads one compressed field at a time. {@link #close()}
 * ends the native decompressors.
 */
public final class CompressedFieldReader implements AutoCloseable {
    private final CompressedFieldConfig config;
    private final MessageReader nested;
    private final StreamDecompressor[] decompressors = new StreamDecompressor[Compression.values().length];
    private final ByteBuffer inflated;

    /** Field in progress: 0 id pending, 1 length pending, 2 bytes. */
    private int phase;

    private Compression compression;
    private long declaredUncompressed;

    /** A reader of compressed fields holding messages of {@code registry}. */
    public CompressedFieldReader(MessageRegistry registry) {
        this(registry, CompressedFieldConfig.DEFAULT);
    }

    public CompressedFieldReader(MessageRegistry registry, CompressedFieldConfig config) {
        this.config = config;
        this.nested = new MessageReader(registry);
        this.inflated = ByteBuffer.allocate(config.chunkBytes());
    }

    /**
     * Reads (or continues reading) a compressed field from {@code r}, as {@code r.readMessage()} reads a nested one.
     *
     * @return the message, or {@code null} for a null field or when {@code r.isLastRead()} is false
     */
    public Message read(MessageReader r) {
        if (phase == 0) {
            int id = r.readInt();
            if (!r.isLastRead() || id == 0) {
                return null;
            }
            compression = Compression.byId(id);
            if (compression == null) {
                throw new MalformedInputException("compressed field: unknown compression id " + id);
            }
            phase = 1;
        }
        if (phase == 1) {
            long len = r.readLong();
            if (!r.isLastRead()) {
                return null;
            }
            if (len < 0 || len > config.maxUncompressedBytes()) {
                throw new LimitExceededException(
                        "compressed field uncompressed size",
                        len < 0 ? Long.MAX_VALUE : len,
                        config.maxUncompressedBytes());
            }
            declaredUncompressed = len;
            phase = 2;
        }
        byte[] bytes = r.readByteArray();
        if (!r.isLastRead()) {
            return null;
        }
        phase = 0;
        if (bytes == null) {
            throw new MalformedInputException("compressed field: compressed bytes are null");
        }
        if (bytes.length > config.maxCompressedBytes()) {
            throw new LimitExceededException(
                    "compressed field compressed size", bytes.length, config.maxCompressedBytes());
        }
        return inflate(bytes);
    }

    /** As {@link #read(MessageReader)}, for a field that must hold a {@code type}. */
    public <T extends Message> T read(MessageReader r, Class<T> type) {
        Message m = read(r);
        if (m != null && !type.isInstance(m)) {
            throw new MalformedInputException(
                    "compressed field: expected " + type.getSimpleName() + " but got type " + m.typeId());
        }
        return type.cast(m);
    }

    /** Abandons a field in progress, with {@link MessageReader#reset()} (after an exception). */
    public void reset() {
        phase = 0;
        nested.reset();
    }

    private Message inflate(byte[] bytes) {
        StreamDecompressor d = decompressors[compression.ordinal()];
        if (d == null) {
            d = decompressors[compression.ordinal()] = StreamDecompressor.create(compression, config.chunkBytes());
        }
        MessageReader r = nested;
        r.reset();
        d.reset();
        d.setInput(bytes, 0, bytes.length);
        long total = 0;
        Message m = null;
        while (m == null) {
            inflated.clear();
            int n = d.decompress(inflated);
            total += n;
            if (total > declaredUncompressed) {
                throw new MalformedInputException(
                        "compressed field inflates past its declared " + declaredUncompressed + " bytes");
            }
            if (n == 0) {
                throw new TruncatedInputException("compressed field ends after " + total
                        + " bytes, before its message is complete (declared " + declaredUncompressed + ")");
            }
            inflated.flip();
            r.setBuffer(inflated);
            m = r.read();
            if (m != null && inflated.hasRemaining()) {
                throw new MalformedInputException(
                        "compressed field: " + inflated.remaining() + " bytes follow the compressed message");
            }
        }
        inflated.clear();
        if (d.decompress(inflated) > 0 || !d.finished()) {
            throw new MalformedInputException(
                    "compressed field: the frame continues after its message, or is not" + " terminated");
        }
        if (total != declaredUncompressed || d.remainingInput() != 0) {
            throw new MalformedInputException("compressed field inflated to " + total + " bytes, declared "
                    + declaredUncompressed + ", with " + d.remainingInput() + " trailing compressed bytes");
        }
        return m;
    }

    /** Ends the native decompressors. */
    @Override
    public void close() {
        for (StreamDecompressor d : decompressors) {
            if (d != null) {
                d.close();
            }
        }
        nested.close();
    }
}
