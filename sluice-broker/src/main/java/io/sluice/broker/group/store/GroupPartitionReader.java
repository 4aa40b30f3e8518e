package io.sluice.broker.group.store;

import io.sluice.log.LogReadResult;
import io.sluice.log.PartitionLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;

/**
 * Replays one {@code __consumer_offsets} partition's log from its start to its end into the live group records:
 * batches are read a buffer at a time straight from the segment files, each batch's CRC is checked, records are
 * applied in offset order (a later record replaces the earlier one with the same key, a tombstone removes it).
 * Anything that does not decode ends in a {@link GroupStoreCorruptException} naming the partition and offset.
 * Not thread-safe; one per load.
 */
final class GroupPartitionReader {
    /** Bytes read from the log at a time (Kafka's offsets.load.buffer.size); a larger first batch is read whole. */
    static final int LOAD_BUFFER_BYTES = 1024 * 1024;

    private final String name;
    private final Map<GroupRecord.RecordKey, GroupRecord> live = new LinkedHashMap<>();
    private long next;

    /** @param name the partition, for error messages; {@code from} the first offset to apply */
    GroupPartitionReader(String name, long from) {
        this.name = name;
        this.next = from;
    }

    /** The live records of {@code log} from its start to its end as of now. */
    static List<GroupRecord> readLive(PartitionLog log, String name) throws IOException {
        long end = log.logEndOffset();
        GroupPartitionReader reader = new GroupPartitionReader(name, log.logStartOffset());
        ByteBuffer buffer = ByteBuffer.allocate(LOAD_BUFFER_BYTES);
        while (reader.next < end) {
            LogReadResult region = log.read(reader.next, LOAD_BUFFER_BYTES, end, true);
            if (region.isEmpty()) {
                break;
            }
            ByteBuffer bytes =
                    region.sizeInBytes() <= buffer.capacity() ? buffer : ByteBuffer.allocate(region.sizeInBytes());
            bytes.clear().limit(region.sizeInBytes());
            readFully(region.channel(), bytes, region.position());
            bytes.flip();
            reader.apply(bytes);
        }
        return reader.liveRecords();
    }

    /** Fills {@code buffer} from {@code channel} at {@code position}; the file ending first is an IOException. */
    static void readFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, at);
            if (read < 0) {
                throw new IOException("unexpected end of file at " + at);
            }
            at += read;
        }
    }

    /** Applies every whole batch in {@code bytes}; the batches must follow what was applied before. */
    void apply(ByteBuffer bytes) throws GroupStoreCorruptException {
        long before = next;
        long at = next;
        try {
            for (MutableRecordBatch batch :
                    MemoryRecords.readableRecords(bytes.slice()).batches()) {
                at = batch.baseOffset();
                batch.ensureValid();
                if (!batch.isControlBatch()) {
                    for (Record record : batch) {
                        at = record.offset();
                        if (at >= next) {
                            put(GroupRecordCodec.decode(record.key(), record.value()));
                        }
                    }
                }
                next = Math.max(next, batch.nextOffset());
            }
        } catch (GroupStoreCorruptException e) {
            throw new GroupStoreCorruptException(name + " at offset " + at + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw new GroupStoreCorruptException(name + " at offset " + at + ": unreadable record batch: " + e);
        }
        if (next == before) {
            throw new GroupStoreCorruptException(
                    name + " at offset " + before + ": " + bytes.remaining() + " bytes hold no whole record batch");
        }
    }

    private void put(GroupRecord record) {
        if (record.isTombstone()) {
            live.remove(record.key());
        } else {
            live.put(record.key(), record);
        }
    }

    List<GroupRecord> liveRecords() {
        return new ArrayList<>(live.values());
    }
}
