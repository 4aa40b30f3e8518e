package io.sluice.record.compress;

import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.ByteWindow;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * gzip members (RFC 1952, as Java's GZIPOutputStream in Kafka's producer writes them): the header
 * is parsed here, the deflate body inflated by one reused raw {@link Inflater} straight into the
 * window, and the trailer's CRC-32 and size checked against what was inflated.
 *
 * <p>Not thread-safe; one per validator.
 */
public final class GzipPayloadDecompressor implements PayloadDecompressor {

    private static final String CODEC = "gzip";
    private static final int ID1 = 0x1f;
    private static final int ID2 = 0x8b;
    private static final int CM_DEFLATE = 8;
    private static final int FIXED_HEADER_LENGTH = 10;
    private static final int FLAGS_OFFSET = 3;
    private static final int FHCRC = 0x02;
    private static final int FEXTRA = 0x04;
    private static final int FNAME = 0x08;
    private static final int FCOMMENT = 0x10;
    private static final int TRAILER_LENGTH = 8;

    private final SourceWindow sources = new SourceWindow(false);
    private final CRC32 crc = new CRC32();
    private Inflater inflater;
    private ByteBuffer input;
    private long inflatedBytes;
    private boolean ended;

    @Override
    public void begin(ByteBuffer source, int from, int to) throws BatchFormatException {
        if (inflater == null) {
            inflater = new Inflater(true);
        } else {
            inflater.reset();
        }
        input = sources.over(source, from, to);
        crc.reset();
        inflatedBytes = 0;
        ended = false;
        input.position(from + headerLength(input, from, to));
        inflater.setInput(input);
    }

    @Override
    public boolean refill(ByteWindow window) throws BatchFormatException {
        if (ended) {
            return false;
        }
        ByteBuffer out = window.buffer();
        int start = window.limit();
        out.limit(out.capacity()).position(start);
        int produced;
        try {
            produced = inflater.inflate(out);
        } catch (DataFormatException e) {
            throw PayloadDecompressor.corrupt(
                    CODEC, "invalid deflate data after " + inflater.getBytesRead() + " compressed bytes", e);
        }
        if (produced > 0) {
            out.position(start).limit(start + produced);
            crc.update(out);
            inflatedBytes += produced;
            window.produced(produced);
            return true;
        }
        if (inflater.finished()) {
            checkTrailer();
            ended = true;
            return false;
        }
        if (inflater.needsDictionary()) {
            throw PayloadDecompressor.corrupt(CODEC, "deflate stream asks for a preset dictionary");
        }
        throw PayloadDecompressor.corrupt(
                CODEC, "deflate stream truncated after " + inflater.getBytesRead() + " compressed bytes");
    }

    private void checkTrailer() throws BatchFormatException {
        int trailer = input.position();
        int left = input.limit() - trailer;
        if (left != TRAILER_LENGTH) {
            throw PayloadDecompressor.corrupt(
                    CODEC, left + " bytes follow the deflate data, expected an " + TRAILER_LENGTH + "-byte trailer");
        }
        ByteOrder order = input.order();
        input.order(ByteOrder.LITTLE_ENDIAN);
        int storedCrc = input.getInt(trailer);
        int storedSize = input.getInt(trailer + Integer.BYTES);
        input.order(order);
        if (storedCrc != (int) crc.getValue()) {
            throw PayloadDecompressor.corrupt(
                    CODEC,
                    "trailer CRC-32 " + Integer.toUnsignedString(storedCrc) + " does not match inflated data's "
                            + crc.getValue());
        }
        if (storedSize != (int) inflatedBytes) {
            throw PayloadDecompressor.corrupt(
                    CODEC,
                    "trailer size " + Integer.toUnsignedString(storedSize) + " does not match the " + inflatedBytes
                            + " bytes inflated");
        }
    }

    /** Length of the member header starting at {@code from}, checking magic and method. */
    private static int headerLength(ByteBuffer in, int from, int to) throws BatchFormatException {
        if (to - from < FIXED_HEADER_LENGTH + TRAILER_LENGTH) {
            throw PayloadDecompressor.corrupt(CODEC, (to - from) + " bytes cannot hold a gzip member");
        }
        int id1 = in.get(from) & 0xff;
        int id2 = in.get(from + 1) & 0xff;
        int method = in.get(from + 2) & 0xff;
        if (id1 != ID1 || id2 != ID2 || method != CM_DEFLATE) {
            throw PayloadDecompressor.corrupt(
                    CODEC,
                    "header magic/method " + id1 + "," + id2 + "," + method + ", expected " + ID1 + "," + ID2 + ","
                            + CM_DEFLATE);
        }
        int flags = in.get(from + FLAGS_OFFSET) & 0xff;
        int at = from + FIXED_HEADER_LENGTH;
        if ((flags & FEXTRA) != 0) {
            requireBytes(at, 2, to);
            int extraLength = (in.get(at) & 0xff) | (in.get(at + 1) & 0xff) << 8;
            at += 2 + extraLength;
        }
        if ((flags & FNAME) != 0) {
            at = skipZeroTerminated(in, at, to);
        }
        if ((flags & FCOMMENT) != 0) {
            at = skipZeroTerminated(in, at, to);
        }
        if ((flags & FHCRC) != 0) {
            at += 2;
        }
        requireBytes(at, TRAILER_LENGTH, to);
        return at - from;
    }

    private static int skipZeroTerminated(ByteBuffer in, int at, int to) throws BatchFormatException {
        int i = at;
        while (i < to && in.get(i) != 0) {
            i++;
        }
        requireBytes(i, 1, to);
        return i + 1;
    }

    private static void requireBytes(int at, int count, int to) throws BatchFormatException {
        if (at + count > to) {
            throw PayloadDecompressor.corrupt(CODEC, "header runs past the payload end");
        }
    }

    @Override
    public void close() {
        sources.release();
        if (inflater != null) {
            inflater.end();
            inflater = null;
        }
    }
}
