package io.sluice.record.compress;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.ByteWindow;
import java.nio.ByteBuffer;

/**
 * zstd frames (as Kafka's producer writes them) decompressed with one reused
 * {@link ZstdDecompressCtx} from direct memory into the direct window: one JNI call per window
 * fill, no stream object or buffer per batch.
 *
 * <p>Not thread-safe; one per validator.
 */
public final class ZstdPayloadDecompressor implements PayloadDecompressor {

    private static final String CODEC = "zstd";
    private final SourceWindow sources = new SourceWindow(true);
    private ZstdDecompressCtx context;
    private ByteBuffer input;
    private boolean frameComplete;

    @Override
    public void begin(ByteBuffer source, int from, int to) {
        if (context == null) {
            context = new ZstdDecompressCtx();
        } else {
            context.reset();
        }
        input = sources.over(source, from, to);
        frameComplete = false;
    }

    @Override
    public boolean refill(ByteWindow window) throws BatchFormatException {
        ByteBuffer out = window.buffer();
        while (true) {
            int start = window.limit();
            int consumedBefore = input.position();
            out.limit(out.capacity()).position(start);
            boolean ended;
            try {
                ended = context.decompressDirectByteBufferStream(out, input);
            } catch (ZstdException e) {
                throw PayloadDecompressor.corrupt(CODEC, "undecodable at compressed byte " + consumedBefore, e);
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
                    throw PayloadDecompressor.corrupt(CODEC, "frame truncated after " + input.limit()
                            + " compressed bytes");
                }
                return false;
            }
            if (!progressed) {
                throw PayloadDecompressor.corrupt(CODEC, "no progress at compressed byte " + consumedBefore);
            }
        }
    }

    @Override
    public void close() {
        sources.release();
        if (context != null) {
            context.close();
            context = null;
        }
    }
}
