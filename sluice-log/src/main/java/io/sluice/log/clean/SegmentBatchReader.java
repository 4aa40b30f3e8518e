package io.sluice.log.clean;

import static io.sluice.record.batch.RecordBatchDescriptor.RECORD_BATCH_OVERHEAD;

import io.sluice.log.batch.BatchFraming;
import io.sluice.log.segment.LogSegment;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads the whole batches of a segment file in order through one reused buffer (grown for a batch larger than it,
 * never beyond the segment's size, so a forged length cannot make it allocate more), paying the throttle for every byte.
 * Not thread-safe; one per cleaner thread.
 */
final class SegmentBatchReader {
    private final IoThrottle throttle;
    private final RecordBatchView view = new RecordBatchView();
    private ByteBuffer buffer;
    private FileChannel channel;
    private long filePosition;
    private long fileLimit;
    private LogSegment segment;

    SegmentBatchReader(int bufferBytes, IoThrottle throttle) {
        this.buffer = ByteBuffer.allocateDirect(bufferBytes);
        this.throttle = throttle;
    }

    /** Starts reading {@code segment} at byte {@code from} up to {@code limit} (its size when the clean began). */
    void open(LogSegment segment, long from, long limit) {
        this.segment = segment;
        this.channel = segment.channel();
        this.filePosition = from;
        this.fileLimit = limit;
        buffer.clear().limit(0);
    }

    /**
     * The next whole batch (valid until the next call), or null at the limit.
     *
     * @throws IOException when the bytes there are not a sane batch: the segment changed under the clean (truncated)
     */
    RecordBatchView next() throws IOException {
        if (buffer.remaining() == 0 && filePosition >= fileLimit) {
            return null;
        }
        if (!fill(RECORD_BATCH_OVERHEAD)) {
            throw new IOException(
                    segment + " ends inside a batch header at byte " + (filePosition - buffer.remaining()));
        }
        view.wrap(buffer, buffer.position());
        int size = view.sizeInBytes();
        if (size < RECORD_BATCH_OVERHEAD || size > fileLimit) {
            throw new IOException(
                    segment + ": batch of " + size + " bytes at byte " + (filePosition - buffer.remaining()));
        }
        if (!fill(size)) {
            throw new IOException(segment + " ends inside a batch of " + size + " bytes");
        }
        view.wrap(buffer, buffer.position());
        String problem = BatchFraming.check(view, buffer.remaining());
        if (problem != null) {
            throw new IOException(segment + ": " + problem);
        }
        buffer.position(buffer.position() + size);
        return view;
    }

    /** Makes {@code bytes} readable at the buffer's position; false when the limit comes first. */
    private boolean fill(int bytes) throws IOException {
        if (buffer.remaining() >= bytes) {
            return true;
        }
        if (buffer.capacity() < bytes) {
            ByteBuffer bigger = ByteBuffer.allocateDirect(bytes);
            bigger.put(buffer);
            buffer = bigger.flip();
        }
        buffer.compact();
        while (buffer.position() < bytes && filePosition < fileLimit) {
            int want = (int) Math.min(buffer.remaining(), fileLimit - filePosition);
            ByteBuffer target = buffer.duplicate();
            target.limit(target.position() + want);
            int read = channel.read(target, filePosition);
            if (read <= 0) {
                break;
            }
            throttle.acquire(read);
            filePosition += read;
            buffer.position(buffer.position() + read);
        }
        buffer.flip();
        return buffer.remaining() >= bytes;
    }

    /** Shrinks a buffer grown for one huge batch back to {@code bytes}. */
    void trim(int bytes) {
        if (buffer.capacity() > bytes) {
            buffer = ByteBuffer.allocateDirect(bytes);
            buffer.limit(0);
        }
    }
}
