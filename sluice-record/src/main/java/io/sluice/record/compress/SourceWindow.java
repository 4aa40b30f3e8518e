package io.sluice.record.compress;

import java.nio.ByteBuffer;

/**
 * Gives a decompressor a readable {@link ByteBuffer} over {@code source[from, to)} without moving
 * the caller's buffer: a cached duplicate of the source (one per distinct request buffer, not per
 * batch), or, when a codec's native API needs direct memory and the source is on the heap, a copy
 * into one reused direct staging buffer.
 *
 * <p>Not thread-safe; one per decompressor.
 */
final class SourceWindow {

    private final boolean needsDirect;
    private ByteBuffer duplicateOf;
    private ByteBuffer duplicate;
    private ByteBuffer staging;

    SourceWindow(boolean needsDirect) {
        this.needsDirect = needsDirect;
    }

    /** A buffer whose position..limit are exactly the payload bytes; owned by this object. */
    @SuppressWarnings("ReferenceEquality") // the duplicate is cached per buffer object, not per contents
    ByteBuffer over(ByteBuffer source, int from, int to) {
        if (needsDirect && !source.isDirect()) {
            int length = to - from;
            if (staging == null || staging.capacity() < length) {
                staging = ByteBuffer.allocateDirect(Math.max(length, staging == null ? 0 : 2 * staging.capacity()));
            }
            staging.clear();
            staging.put(0, source, from, length);
            staging.limit(length);
            return staging;
        }
        if (duplicateOf != source) {
            duplicate = source.duplicate();
            duplicateOf = source;
        }
        duplicate.limit(to).position(from);
        return duplicate;
    }

    /** Forgets the cached source so a released request buffer is not kept reachable. */
    void release() {
        duplicateOf = null;
        duplicate = null;
    }
}
