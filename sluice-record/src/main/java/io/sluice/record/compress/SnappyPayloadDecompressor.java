package io.sluice.record.compress;

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
 *
 * <p>Not thread-safe; one per validator.
 */
public final class SnappyPayloadDecompressor implements PayloadDecompressor {

    private static final String CODEC = "snappy";
    private static final byte[] XERIAL_MAGIC = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};
    private static final int XERIAL_VERSION_OFFSET = XERIAL_MAGIC.length;
    private static final int XERIAL_COMPATIBLE_VERSION_OFFSET = XERIAL_VERSION_OFFSET + Integer.BYTES;
    private static final int XERIAL_HEADER_LENGTH = XERIAL_COMPATIBLE_VERSION_OFFSET + Integer.BYTES;
    private static final int XERIAL_MIN_COMPATIBLE_VERSION = 1;
    private static final int CHUNK_LENGTH_LENGTH = Integer.BYTES;

    private final SourceWindow sources = new SourceWindow(true);
    private ByteBuffer input;
    private boolean framed;
    private int end;

    @Override
    public void begin(ByteBuffer source, int from, int to) throws BatchFormatException {
        input = sources.over(source, from, to);
        end = input.limit();
        framed = hasXerialHeader(input);
        if (framed) {
            int compatible = input.getInt(input.position() + XERIAL_COMPATIBLE_VERSION_OFFSET);
            if (compatible < XERIAL_MIN_COMPATIBLE_VERSION) {
                throw PayloadDecompressor.corrupt(CODEC, "xerial compatible version " + compatible + " is below "
                        + XERIAL_MIN_COMPATIBLE_VERSION);
            }
            input.position(input.position() + XERIAL_HEADER_LENGTH);
        }
    }

    @Override
    public boolean refill(ByteWindow window) throws BatchFormatException {
        int at = input.position();
        if (at >= end) {
            return false;
        }
        int blockEnd = end;
        if (framed) {
            if (end - at < CHUNK_LENGTH_LENGTH) {
                throw PayloadDecompressor.corrupt(CODEC, (end - at) + " trailing bytes cannot hold a chunk length");
            }
            int chunkLength = input.getInt(at);
            at += CHUNK_LENGTH_LENGTH;
            if (chunkLength < 0 || chunkLength > end - at) {
                throw PayloadDecompressor.corrupt(CODEC, "chunk length " + chunkLength + " at byte " + at
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
            window.reserve(length);
            ByteBuffer out = window.buffer();
            out.limit(out.capacity()).position(window.limit());
            int produced = Snappy.uncompress(input, out);
            if (produced != length) {
                throw PayloadDecompressor.corrupt(CODEC, "block declared " + length + " bytes but yielded " + produced);
            }
            input.limit(end).position(blockEnd);
            window.produced(produced);
            return true;
        } catch (IOException | SnappyError e) {
            throw PayloadDecompressor.corrupt(CODEC, "undecodable block at byte " + at, e);
        }
    }

    private static boolean hasXerialHeader(ByteBuffer in) {
        int at = in.position();
        if (in.limit() - at < XERIAL_HEADER_LENGTH) {
            return false;
        }
        for (int i = 0; i < XERIAL_MAGIC.length; i++) {
            if (in.get(at + i) != XERIAL_MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        sources.release();
    }
}
