package io.sluice.record.compress;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.ByteWindow;
import java.nio.ByteBuffer;

/**
 * zstd frames (as Kafka's producer writes them) decompressed with one reused
 * {@link ZstdDecompressCtx} from direct memory into the direct window, no stream object or buffer
 * per batch.
 *
 * <p>When the frame headers bound the whole payload's decompressed size within the ceiling and
 * {@code maxWholePayloadBytes}, the first refill decodes it in one call straight into the window
 * (growing it to at most that size): libzstd's streaming mode decodes each block into its own
 * window buffer and copies it out, the one-shot mode writes into the destination, which for
 * incompressible (raw-block) payloads halves the copying. Anything else streams, one JNI call per
 * window fill; a payload the one-shot decode rejects is streamed again, so errors are exactly the
 * streaming decoder's.
 *
 * <p>Not thread-safe; one per validator.
 */
public final class ZstdPayloadDecompressor implements PayloadDecompressor {

    /** Largest payload decoded in one call by default: the validator's default retained window. */
    public static final int DEFAULT_MAX_WHOLE_PAYLOAD_BYTES = 4 * 1024 * 1024 + 1024;

    private static final String CODEC = "zstd";
    private final SourceWindow sources = new SourceWindow(true);
    private final int maxWholePayloadBytes;
    private ZstdDecompressCtx context;
    private ByteBuffer input;
    /** The payload's first byte in {@link #input}: error messages count bytes from it. */
    private int payloadStart;
    /** The payload as given to {@link #begin}: {@link #storedRanges} indexes the caller's buffer. */
    private ByteBuffer source;

    private int sourceFrom;
    private int sourceTo;
    private boolean frameComplete;
    private boolean firstRefill;
    /** This payload's streaming decode has begun (its context reset). */
    private boolean streaming;
    /** Payloads decoded in one call since construction (tests check which path ran). */
    private long wholePayloadDecodes;

    public ZstdPayloadDecompressor() {
        this(DEFAULT_MAX_WHOLE_PAYLOAD_BYTES);
    }

    /**
     * @param maxWholePayloadBytes largest decompressed payload decoded in one call (the window
     *                             grows to at most this); 0 always streams
     */
    public ZstdPayloadDecompressor(int maxWholePayloadBytes) {
        if (maxWholePayloadBytes < 0) {
            throw new IllegalArgumentException("maxWholePayloadBytes must be >= 0, was " + maxWholePayloadBytes);
        }
        this.maxWholePayloadBytes = maxWholePayloadBytes;
    }

    @Override
    public void begin(ByteBuffer source, int from, int to) {
        if (context == null) {
            context = new ZstdDecompressCtx();
        }
        input = null; // staged at the first refill: a payload read in place is never copied
        this.source = source;
        this.sourceFrom = from;
        this.sourceTo = to;
        frameComplete = false;
        firstRefill = true;
        streaming = false;
    }

    @Override
    public boolean refill(ByteWindow window) throws BatchFormatException {
        if (input == null) {
            input = sources.over(source, sourceFrom, sourceTo);
            payloadStart = input.position();
        }
        if (firstRefill) {
            firstRefill = false;
            if (decodeWhole(window)) {
                return true;
            }
        }
        if (frameComplete && !input.hasRemaining()) {
            return false;
        }
        if (!streaming) {
            // Only the streaming decoder keeps state between calls; the one-call decode starts
            // afresh by itself, so a payload decoded whole costs no reset (one JNI call less).
            context.reset();
            streaming = true;
        }
        ByteBuffer out = window.buffer();
        while (true) {
            if (frameComplete && !input.hasRemaining()) {
                return false;
            }
            int start = window.limit();
            int consumedBefore = input.position();
            out.limit(out.capacity()).position(start);
            boolean ended;
            try {
                ended = context.decompressDirectByteBufferStream(out, input);
            } catch (ZstdException e) {
                throw PayloadDecompressor.corrupt(
                        CODEC, "undecodable at compressed byte " + (consumedBefore - payloadStart), e);
            }
            int produced = out.position() - start;
            boolean progressed = produced > 0 || input.position() != consumedBefore;
            if (progressed) {
                frameComplete = ended;
            }
            if (produced > 0) {
                window.produced(produced);
                return true;
            }
            if (!input.hasRemaining()) {
                if (!frameComplete) {
                    throw PayloadDecompressor.corrupt(
                            CODEC, "frame truncated after " + (input.limit() - payloadStart) + " compressed bytes");
                }
                return false;
            }
            if (!progressed) {
                throw PayloadDecompressor.corrupt(
                        CODEC, "no progress at compressed byte " + (consumedBefore - payloadStart));
            }
        }
    }

    /**
     * Decodes the whole payload into the window in one call when its frame headers bound it within
     * the limits; returns false, having consumed nothing and produced nothing, when it does not fit
     * or does not decode (the streaming path then gives its verdict).
     */
    private boolean decodeWhole(ByteWindow window) throws BatchFormatException {
        long bound = ZstdFrameLayout.decompressedBound(input, input.position(), input.limit());
        if (bound <= 0 || !window.tryReserve(bound, maxWholePayloadBytes)) {
            return false;
        }
        ByteBuffer out = window.buffer();
        int start = window.limit();
        out.limit(out.capacity());
        int produced;
        try {
            produced = context.decompressDirectByteBuffer(
                    out, start, out.capacity() - start, input, input.position(), input.remaining());
        } catch (ZstdException e) {
            return false;
        }
        if (produced == 0) {
            return false;
        }
        input.position(input.limit());
        frameComplete = true;
        wholePayloadDecodes++;
        window.produced(produced);
        return true;
    }

    @Override
    public int storedRanges(long maxBytes, int[] ranges) {
        return ZstdFrameLayout.storedRanges(source, sourceFrom, sourceTo, maxBytes, ranges);
    }

    long wholePayloadDecodes() {
        return wholePayloadDecodes;
    }

    @Override
    public void close() {
        sources.release();
        source = null;
        if (context != null) {
            context.close();
            context = null;
        }
    }
}
