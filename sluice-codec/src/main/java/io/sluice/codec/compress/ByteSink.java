package io.sluice.codec.compress;

import java.nio.ByteBuffer;

/**
 * Where compressed bytes go: a growable scratch, a part splitter, a stream. Implementations state their own threading.
 */
public interface ByteSink {

    /** Appends {@code len} bytes of {@code src} from {@code off}. */
    void write(byte[] src, int off, int len);

    /** Appends the remaining bytes of {@code src}, leaving its position at its limit. */
    void write(ByteBuffer src);
}
