package io.sluice.log.ship;

import io.sluice.log.segment.BatchScanner;
import io.sluice.record.batch.Crc32cCombine;
import io.sluice.record.batch.RecordBatchView;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

import static io.sluice.record.batch.RecordBatchDescriptor.ATTRIBUTES_OFFSET;

/**
 * CRC-32C of a byte range of a segment file, as a sender of the range must vouch for it, computed mostly without
 * reading the range: every whole batch inside it contributes the CRC-32C of its header bytes (read anyway to find the
 * next batch) combined with the CRC-32C the batch stores for the rest of its bytes ({@link Crc32cCombine}). Only the
 * parts of the two batches the range cuts, and everything after a batch header that is not sane, are read and
 * checksummed byte by byte.
 *
 * <p>The result equals the CRC-32C of the range's bytes whenever every whole batch's stored checksum is right; when a
 * stored checksum is wrong (the file is damaged), the result differs from the bytes' checksum, so a receiver that
 * checks the bytes refuses the range: damage is never vouched for.
 *
 * <p>Ranges asked one after the other ({@code position} = the previous range's end) continue from the batch boundary
 * the previous call found; any other position walks the headers from {@code walkFrom}, a batch boundary at or before
 * it. Not thread-safe; one per sending thread, or per file under the caller's lock.
 */
public final class SegmentRangeChecksum {
    private static final int READ_BYTES = 64 * 1024;

    private final BatchScanner scanner = new BatchScanner();
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(READ_BYTES);
    private final CRC32C crc = new CRC32C();
    /** The file and end of the last range, and the batch boundary at or before that end (-1: bytes from there on). */
    private FileChannel lastFile;
    private long lastEnd = -1;
    private long lastBoundary = -1;
    private long batchesCombined;
    private long bytesRead;

    /**
     * @param file     the segment file; {@code limit} bytes of it are whole batches
     * @param walkFrom a batch boundary at or before {@code position} (0 will do) where the header walk starts when the
     *                 range does not continue the previous one
     * @throws IOException also when the file ends inside the range (truncated under the transfer)
     */
    public int of(FileChannel file, long position, int length, long limit, long walkFrom) throws IOException {
        long end = position + length;
        if (end > limit) {
            throw new IOException("range [" + position + ", " + end + ") passes the " + limit + " bytes of the segment");
        }
        boolean continues = file == lastFile && position == lastEnd;
        long boundary = continues ? lastBoundary : walkFrom;
        int checksum = 0;
        long at = position;
        while (at < end) {
            RecordBatchView batch = boundary < 0 ? null : scanner.readHeader(file, boundary, limit);
            if (batch == null) { // no sane batch here: vouch for the rest byte by byte, and for what follows
                checksum = Crc32cCombine.combine(checksum, read(file, at, end), end - at);
                boundary = -1;
                break;
            }
            long batchEnd = boundary + batch.sizeInBytes();
            if (batchEnd <= at) {
                boundary = batchEnd;
                continue;
            }
            if (boundary < at || batchEnd > end) { // a batch the range cuts
                long pieceEnd = Math.min(batchEnd, end);
                checksum = Crc32cCombine.combine(checksum, read(file, at, pieceEnd), pieceEnd - at);
                at = pieceEnd;
            } else {
                checksum = Crc32cCombine.combine(checksum, wholeBatch(batch), batch.sizeInBytes());
                batchesCombined++;
                at = batchEnd;
            }
            if (at == batchEnd) {
                boundary = batchEnd;
            }
        }
        lastFile = file;
        lastEnd = end;
        lastBoundary = boundary;
        return checksum;
    }

    /** CRC-32C of a range of a file that is not a segment (a producer snapshot): every byte is read. */
    public int ofBytes(FileChannel file, long position, int length) throws IOException {
        lastFile = null;
        return read(file, position, position + length);
    }

    /** Whole batches checksummed from their headers so far. */
    public long batchesCombined() {
        return batchesCombined;
    }

    /** Bytes read and checksummed one by one so far (cut batches, insane headers). */
    public long bytesRead() {
        return bytesRead;
    }

    /** The CRC-32C of the whole batch whose header {@code batch} is: its header bytes, then its stored checksum. */
    private int wholeBatch(RecordBatchView batch) {
        crc.reset();
        ByteBuffer header = batch.buffer();
        crc.update(header.array(), header.arrayOffset() + batch.offset(), ATTRIBUTES_OFFSET);
        return Crc32cCombine.combine((int) crc.getValue(), batch.storedCrc(), batch.sizeInBytes() - ATTRIBUTES_OFFSET);
    }

    private int read(FileChannel file, long from, long to) throws IOException {
        crc.reset();
        long at = from;
        while (at < to) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), to - at));
            int read = file.read(buffer, at);
            if (read <= 0) {
                throw new IOException("file ends at " + at + ", inside the range [" + from + ", " + to + ")");
            }
            buffer.flip();
            crc.update(buffer);
            at += read;
        }
        bytesRead += to - from;
        return (int) crc.getValue();
    }
}
