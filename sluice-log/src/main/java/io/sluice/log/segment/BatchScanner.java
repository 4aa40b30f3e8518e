package io.sluice.log.segment;

import static io.sluice.record.batch.RecordBatchDescriptor.ATTRIBUTES_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORD_BATCH_OVERHEAD;

import io.sluice.log.batch.BatchFraming;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * Walks batch headers of a segment file with positional reads into one small reused buffer; record bytes are
 * only read when a CRC is checked, in bounded chunks into one reused direct buffer (a file read into a heap buffer
 * would go through a JDK temporary direct buffer first), so a forged length never causes a large allocation.
 * Not thread-safe; one per reading or recovering thread.
 */
public final class BatchScanner {
    private static final int CRC_CHUNK_BYTES = 64 * 1024;

    private final ByteBuffer header = ByteBuffer.allocate(RECORD_BATCH_OVERHEAD);
    private final RecordBatchView batch = new RecordBatchView().wrap(header, 0);
    private ByteBuffer crcChunk;
    private CRC32C crc;
    private String problem;

    /**
     * Reads the header of the batch at {@code position} and checks its framing against {@code limit}.
     *
     * @return the header flyweight (valid until the next call), or null when there is no sane batch there;
     *         then {@link #problem()} says why (null at exactly {@code limit})
     */
    public RecordBatchView readHeader(FileChannel channel, long position, long limit) throws IOException {
        problem = null;
        if (position >= limit) {
            return null;
        }
        header.clear();
        int wanted = (int) Math.min(RECORD_BATCH_OVERHEAD, limit - position);
        header.limit(wanted);
        while (header.hasRemaining()) {
            if (channel.read(header, position + header.position()) < 0) {
                break;
            }
        }
        int available = (int) Math.min(Integer.MAX_VALUE, limit - position);
        if (header.position() < RECORD_BATCH_OVERHEAD) {
            problem = "only " + header.position() + " bytes left, a batch header needs " + RECORD_BATCH_OVERHEAD;
            return null;
        }
        problem = BatchFraming.check(batch, available);
        return problem == null ? batch : null;
    }

    /** Why the last {@link #readHeader} returned null. */
    public String problem() {
        return problem;
    }

    /** Checks the CRC-32C of the batch whose header was just read at {@code position}, streaming its bytes. */
    public boolean isCrcValid(FileChannel channel, long position) throws IOException {
        if (crc == null) {
            crc = new CRC32C();
            crcChunk = ByteBuffer.allocateDirect(CRC_CHUNK_BYTES);
        }
        crc.reset();
        long at = position + ATTRIBUTES_OFFSET;
        long end = position + batch.sizeInBytes();
        while (at < end) {
            crcChunk.clear();
            crcChunk.limit((int) Math.min(crcChunk.capacity(), end - at));
            int read = channel.read(crcChunk, at);
            if (read <= 0) {
                return false;
            }
            crcChunk.flip();
            crc.update(crcChunk);
            at += read;
        }
        return (int) crc.getValue() == batch.storedCrc();
    }
}
