package io.sluice.broker.network;

import java.io.IOException;
import java.nio.channels.FileChannel;
import org.apache.kafka.common.network.TransferableChannel;
import org.apache.kafka.common.record.DefaultRecordsSend;
import org.apache.kafka.common.record.RecordsSend;
import org.apache.kafka.common.record.TransferableRecords;

/**
 * The records field of a fetch response as a range of a segment file. The response writer turns
 * it into a {@link SegmentFileRegion}, so the record bytes go from the page cache to the socket
 * without entering the heap.
 *
 * <p>Immutable; safe to hand between threads.
 */
public final class FileSliceRecords implements TransferableRecords {
    private final FileChannel channel;
    private final long position;
    private final int sizeInBytes;

    public FileSliceRecords(FileChannel channel, long position, int sizeInBytes) {
        this.channel = channel;
        this.position = position;
        this.sizeInBytes = sizeInBytes;
    }

    public FileChannel channel() {
        return channel;
    }

    public long position() {
        return position;
    }

    @Override
    public int sizeInBytes() {
        return sizeInBytes;
    }

    @Override
    public RecordsSend<? extends TransferableRecords> toSend() {
        return new DefaultRecordsSend<>(this);
    }

    @Override
    public int writeTo(TransferableChannel destination, int offset, int length) throws IOException {
        long count = Math.min(length, sizeInBytes - offset);
        return (int) destination.transferFrom(channel, position + offset, count);
    }
}
