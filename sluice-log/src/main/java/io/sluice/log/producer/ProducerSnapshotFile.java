package io.sluice.log.producer;

import static io.sluice.log.producer.ProducerSnapshotDescriptor.*;

import io.sluice.log.checkpoint.AtomicFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.zip.CRC32C;

/** Writes and reads producer state snapshots (see {@link ProducerSnapshotDescriptor}). Stateless; thread-safe. */
public final class ProducerSnapshotFile {
    private ProducerSnapshotFile() {}

    /** Writes atomically: a temporary file, fsync, rename. */
    public static void write(Path file, Collection<ProducerEntry> entries) throws IOException {
        int size = HEADER_LENGTH;
        for (ProducerEntry entry : entries) {
            size += PRODUCER_LENGTH + entry.batchCount() * BATCH_LENGTH;
        }
        ByteBuffer buffer = ByteBuffer.allocate(size);
        buffer.putShort(VERSION_OFFSET, VERSION);
        buffer.putInt(PRODUCER_COUNT_OFFSET, entries.size());
        buffer.position(HEADER_LENGTH);
        for (ProducerEntry entry : entries) {
            buffer.putLong(entry.producerId())
                    .putShort(entry.epoch())
                    .putLong(entry.lastTimestamp())
                    .put((byte) entry.batchCount());
            for (BatchMetadata batch : entry.batches()) {
                buffer.putInt(batch.lastSeq())
                        .putLong(batch.lastOffset())
                        .putInt(batch.offsetDelta())
                        .putLong(batch.timestamp());
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(buffer.array(), PRODUCER_COUNT_OFFSET, size - PRODUCER_COUNT_OFFSET);
        buffer.putInt(CRC_OFFSET, (int) crc.getValue());
        AtomicFile.write(file, buffer.flip());
    }

    /**
     * Reads a snapshot.
     *
     * @throws CorruptSnapshotException when the size, version, CRC, counts or sequence fields are wrong
     */
    public static List<ProducerEntry> read(Path file) throws IOException {
        long size = Files.size(file);
        if (size < HEADER_LENGTH || size > MAX_FILE_BYTES) {
            throw new CorruptSnapshotException(
                    file, "size " + size + " is outside [" + HEADER_LENGTH + ", " + MAX_FILE_BYTES + "]");
        }
        ByteBuffer buffer = ByteBuffer.allocate((int) size);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // reads until full or end of file
            }
        }
        if (buffer.hasRemaining()) {
            throw new CorruptSnapshotException(file, "file shrank while reading");
        }
        short version = buffer.getShort(VERSION_OFFSET);
        if (version != VERSION) {
            throw new CorruptSnapshotException(file, "version " + version + " is not " + VERSION);
        }
        CRC32C crc = new CRC32C();
        crc.update(buffer.array(), PRODUCER_COUNT_OFFSET, (int) size - PRODUCER_COUNT_OFFSET);
        int stored = buffer.getInt(CRC_OFFSET);
        if ((int) crc.getValue() != stored) {
            throw new CorruptSnapshotException(
                    file,
                    "CRC-32C " + Integer.toHexString((int) crc.getValue()) + " does not match the stored "
                            + Integer.toHexString(stored));
        }
        int count = buffer.getInt(PRODUCER_COUNT_OFFSET);
        if (count < 0 || (long) count * PRODUCER_LENGTH > size - HEADER_LENGTH) {
            throw new CorruptSnapshotException(file, "producerCount " + count + " does not fit in " + size + " bytes");
        }
        List<ProducerEntry> entries = new ArrayList<>(count);
        buffer.position(HEADER_LENGTH);
        for (int i = 0; i < count; i++) {
            if (buffer.remaining() < PRODUCER_LENGTH) {
                throw new CorruptSnapshotException(file, "producer " + i + " is truncated");
            }
            long producerId = buffer.getLong();
            short epoch = buffer.getShort();
            long lastTimestamp = buffer.getLong();
            int batchCount = buffer.get();
            if (producerId < 0 || batchCount < 0 || batchCount > ProducerStateManager.BATCHES_RETAINED) {
                throw new CorruptSnapshotException(
                        file, "producer " + i + " has producerId " + producerId + " and batchCount " + batchCount);
            }
            if (buffer.remaining() < batchCount * BATCH_LENGTH) {
                throw new CorruptSnapshotException(file, "batches of producer " + producerId + " are truncated");
            }
            ProducerEntry entry = new ProducerEntry(producerId, epoch, lastTimestamp);
            for (int b = 0; b < batchCount; b++) {
                int lastSeq = buffer.getInt();
                long lastOffset = buffer.getLong();
                int offsetDelta = buffer.getInt();
                long timestamp = buffer.getLong();
                if (lastSeq < 0 || offsetDelta < 0 || lastOffset < offsetDelta) {
                    throw new CorruptSnapshotException(
                            file,
                            "batch " + b + " of producer " + producerId + " has lastSeq " + lastSeq + ", lastOffset "
                                    + lastOffset + ", offsetDelta " + offsetDelta);
                }
                entry.addBatch(epoch, new BatchMetadata(lastSeq, lastOffset, offsetDelta, timestamp));
            }
            entries.add(entry);
        }
        if (buffer.hasRemaining()) {
            throw new CorruptSnapshotException(
                    file, buffer.remaining() + " trailing bytes after " + count + " producers");
        }
        return entries;
    }
}
