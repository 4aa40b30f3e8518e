package io.sluice.record.compress;

import static io.sluice.record.compress.SnappyFrameLayout.CHUNK_LENGTH_LENGTH;
import static io.sluice.record.compress.SnappyFrameLayout.XERIAL_COMPATIBLE_VERSION_OFFSET;
import static io.sluice.record.compress.SnappyFrameLayout.XERIAL_HEADER_LENGTH;
import static io.sluice.record.compress.SnappyFrameLayout.XERIAL_MIN_COMPATIBLE_VERSION;

import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.ByteWindow;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.xerial.snappy.Snappy;
import org.xerial.snappy.SnappyError;

/**
 * snappy payloads in the xerial framing Kafka's Java producer writes (16-byte header, then
 * chunks of [int32 big-endian compressed length][raw snappy block]); like Kafka's reader, a payload
 * without the xerial header is taken as one raw snappy block (librdkafka writes those). Each
 * block is uncompressed in one native call into the window (grown once if a block is larger).
 * The header is read where the payload lies; a heap payload is staged in direct memory for the
 * native calls at the first refill only, so a payload read through {@link #storedRanges} is
 * never copied.
 *
 * <p>Not thread-safe; one per validator.
 */
public final class SnappyPayloadDecompressor implements PayloadDecompressor {

    private static final String CODEC = "snappy";

    private final SourceWindow sources = new SourceWindow(true);
    /** The payload as given to {@link #begin}: the header and {@link #storedRanges} read it in place. */
    private ByteBuffer source;

    private int sourceFrom;
    private int sourceTo;
    /** Where the first chunk (or the one raw block) starts in {@link #source}; -1 until begun. */
    private int firstChunk = -1;
    /** The payload readable by snappy-java's native calls (direct), from the first refill on; else null. */
    private ByteBuffer input;

    private boolean framed;
    private int end;
    /** The payload's first byte in {@link #input}: error messages count bytes from it. */
    private int payloadStart;

    @Override
    public void begin(ByteBuffer source, int from, int to) throws BatchFormatException {
        firstChunk = -1;
        input = null;
        this.source = source;
        sourceFrom = from;
        sourceTo = to;
        framed = SnappyFrameLayout.hasXerialHeader(source, from, to);
        if (framed) {
            int compatible = SnappyFrameLayout.bigEndianInt32(source, from + XERIAL_COMPATIBLE_VERSION_OFFSET);
            if (compatible < XERIAL_MIN_COMPATIBLE_VERSION) {
                throw PayloadDecompressor.corrupt(
                        CODEC,
                        "xerial compatible version " + compatible + " is below " + XERIAL_MIN_COMPATIBLE_VERSION);
            }
        }
        firstChunk = framed ? from + XERIAL_HEADER_LENGTH : from;
    }

    /**
     * The payload's literals as they lie in the source, when every element of every block is a
     * literal and every length is exactly right: then snappy's decoder accepts each block and
     * yields exactly these bytes. snappy-java writes one literal per 32 KiB chunk of
     * incompressible data, but any 4-byte repeat it finds (record framing, repeated header keys)
     * becomes a copy, and then the payload is not stored. Reads tags and lengths only.
     */
    @Override
    public int storedRanges(long maxBytes, int[] ranges) {
        if (firstChunk < 0) {
            return NOT_STORED;
        }
        return SnappyFrameLayout.storedRanges(source, firstChunk, sourceTo, framed, maxBytes, ranges);
    }

    @Override
    public boolean refill(ByteWindow window) throws BatchFormatException {
        if (input == null) {
            input = sources.over(source, sourceFrom, sourceTo);
            end = input.limit();
            payloadStart = input.position();
            input.position(input.position() + (firstChunk - sourceFrom));
        }
        int at = input.position();
        if (at >= end) {
            return false;
        }
        int blockEnd = end;
        if (framed) {
            if (end - at < CHUNK_LENGTH_LENGTH) {
                throw PayloadDecompressor.corrupt(CODEC, (end - at) + " trailing bytes cannot hold a chunk length");
            }
            int chunkLength = SnappyFrameLayout.bigEndianInt32(input, at);
            at += CHUNK_LENGTH_LENGTH;
            if (chunkLength < 0 || chunkLength > end - at) {
                throw PayloadDecompressor.corrupt(
                        CODEC,
                        "chunk length " + chunkLength + " at byte " + (at - payloadStart)
                                + " is negative or exceeds the " + (end - at) + " bytes left");
            }
            blockEnd = at + chunkLength;
        }
        input.limit(blockEnd).position(at);
        try {
            int length = Snappy.uncompressedLength(input);
            if (length < 0) {
                throw PayloadDecompressor.corrupt(CODEC, "block declares a negative length " + length);
            }
            if (SnappyFrameLayout.declaresMoreThanDecodable(length, blockEnd - at)) {
                // checked before any room is reserved: a forged length must not grow the window
                throw PayloadDecompressor.corrupt(
                        CODEC,
                        "block of " + (blockEnd - at) + " bytes declares " + length
                                + " decompressed bytes, more than snappy's copies can expand it to");
            }
            window.reserve(length);
            ByteBuffer out = window.buffer();
            out.limit(out.capacity()).position(window.limit());
            int produced;
            try {
                produced = Snappy.uncompress(input, out);
            } finally {
                // snappy-java moves the window buffer's position and limit; the window and whoever
                // reuses its buffer (as scratch) index it absolutely, up to its capacity
                out.clear();
            }
            if (produced != length) {
                throw PayloadDecompressor.corrupt(CODEC, "block declared " + length + " bytes but yielded " + produced);
            }
            input.limit(end).position(blockEnd);
            window.produced(produced);
            return true;
        } catch (IOException | SnappyError e) {
            throw PayloadDecompressor.corrupt(CODEC, "undecodable block at byte " + (at - payloadStart), e);
        }
    }

    @Override
    public void close() {
        sources.release();
        source = null;
        input = null;
    }
}
