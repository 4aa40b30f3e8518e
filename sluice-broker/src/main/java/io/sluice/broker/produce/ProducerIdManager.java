package io.sluice.broker.produce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Hands out producer ids that are never reused, even across crashes: ids are reserved in blocks,
 * and the end of the current block is recorded durably (fsync) before any id of it is handed out.
 * A restart continues after the recorded end, skipping the unused rest of the block.
 *
 * <p>Thread-safe.
 */
public final class ProducerIdManager {
    /** Ids reserved per durable write; bounds the fsyncs to one per this many new producers. */
    static final int BLOCK_SIZE = 1000;
    /** File layout: next unreserved id (long) followed by the CRC-32C of those 8 bytes (int). */
    private static final int NEXT_ID_OFFSET = 0;
    private static final int CRC_OFFSET = NEXT_ID_OFFSET + Long.BYTES;
    private static final int FILE_LENGTH = CRC_OFFSET + Integer.BYTES;

    private final Path file;
    private long nextId;
    private long blockEnd;

    public ProducerIdManager(Path file) throws IOException {
        this.file = file;
        long recorded = readRecordedEnd(file);
        this.nextId = recorded;
        this.blockEnd = recorded;
    }

    public synchronized long nextProducerId() throws IOException {
        if (nextId >= blockEnd) {
            long newEnd = blockEnd + BLOCK_SIZE;
            record(newEnd);
            blockEnd = newEnd;
        }
        return nextId++;
    }

    private void record(long end) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(FILE_LENGTH);
        buffer.putLong(NEXT_ID_OFFSET, end);
        buffer.putInt(CRC_OFFSET, crc(end));
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static long readRecordedEnd(Path file) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length != FILE_LENGTH) {
            throw new IOException("producer id file " + file + " has " + bytes.length + " bytes, expected " + FILE_LENGTH);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        long end = buffer.getLong(NEXT_ID_OFFSET);
        if (buffer.getInt(CRC_OFFSET) != crc(end) || end < 0) {
            throw new IOException("producer id file " + file + " is corrupt (checksum mismatch or negative id " + end + ")");
        }
        return end;
    }

    private static int crc(long value) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(Long.BYTES).putLong(0, value));
        return (int) crc.getValue();
    }
}
