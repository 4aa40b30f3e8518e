package io.sluice.log.ship;

import static io.sluice.record.batch.RecordBatchDescriptor.ATTRIBUTES_OFFSET;

import io.sluice.log.batch.BatchFraming;
import io.sluice.log.segment.BatchHeaderTable;
import io.sluice.record.batch.Crc32cCombine;
import io.sluice.record.batch.RecordBatchView;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * CRC-32C of a byte range of a segment file, as the sender of the range must vouch for it, computed on the segment
 * mapped read-only (no copy out of the page cache, no system call per batch): a whole batch of at least
 * {@link #COMBINE_MIN_BYTES} contributes the CRC-32C of its header bytes combined with the CRC-32C it stores for the
 * rest ({@link Crc32cCombine}), so its records are not read; smaller batches, the parts of the two batches the range
 * cuts, and everything after a batch header that is not sane are checksummed byte by byte from the mapping.
 *
 * <p>The result equals the CRC-32C of the range's bytes whenever every combined batch's stored checksum is right.
 * When a combined batch is damaged, the result differs from the bytes' checksum and a receiver that checks the bytes
 * refuses the range; a damaged batch checksummed byte by byte is vouched for as it is, and the receiver's own check of
 * every batch's CRC refuses it. Either way damage is never installed.
 *
 * <p>Ranges asked one after the other ({@code position} = the previous range's end, same file) continue from the
 * batch boundary the previous call found; any other position walks the headers from the file's start. The mapping of
 * the current file is kept until another file is asked for (the JVM unmaps it when it is collected, as it does the
 * index mappings). Not thread-safe; one per sender, or per transfer under the caller's lock.
 */
public final class SegmentRangeChecksum {
    /** Whether a range of a segment's mapping is in the page cache; a hint, which only chooses how to checksum it. */
    @FunctionalInterface
    public interface Residency {
        boolean resident(MappedByteBuffer mapping, int position, int length);
    }

    /**
     * Asks the kernel ({@code mincore}, through {@link MappedByteBuffer#isLoaded}): about 85 us for a 16 MiB range of
     * small folios, 72 us of large ones, on the host of docs/benchmarks.md section 10.
     */
    public static final Residency PAGE_CACHE = (mapping, position, length) ->
            length == 0 || mapping.slice(position, length).isLoaded();

    /** Below this a batch's bytes are checksummed faster than its stored CRC is combined (about half a microsecond). */
    public static final int COMBINE_MIN_BYTES = 2048;

    private static final int READ_BYTES = 64 * 1024;

    private final RecordBatchView header = new RecordBatchView();
    private final CRC32C crc = new CRC32C();
    private final Residency residency;
    private ByteBuffer readBuffer;
    private FileChannel mappedFile;
    private long mappedLimit;
    private MappedByteBuffer mapped;
    /** A view of {@link #mapped} whose position and limit select what is checksummed. */
    private ByteBuffer view;
    /** The end of the last range; the next range continues from {@link #walkBoundary} when it starts there. */
    private long lastEnd = -1;

    /**
     * The walk of {@link #of}: the next batch header (-1: no sane batch from there on; after a call, the batch boundary
     * at or before the range's end), how far the range is covered, where the bytes not yet checksummed start, and the
     * checksum of the range before them.
     */
    private int walkBoundary = -1;

    private int walkAt;
    private int walkRawFrom;
    private int walkChecksum;
    private long batchesCombined;
    private long bytesChecksummed;
    private long headersRead;
    private long rangesFromTable;

    public SegmentRangeChecksum() {
        this(PAGE_CACHE);
    }

    /** @param residency tells whether a range is in the page cache, which decides whether a batch header table is used */
    public SegmentRangeChecksum(Residency residency) {
        this.residency = residency;
    }

    /**
     * @param file  the segment file; its first {@code limit} bytes are whole batches (at most 2 GiB, as segments are)
     * @throws IOException also when the file is shorter than {@code limit} or the range passes it
     */
    public int of(FileChannel file, long position, int length, long limit) throws IOException {
        long end = checkedEnd(position, length, limit);
        boolean continues = file == mappedFile && limit == mappedLimit && position == lastEnd;
        ByteBuffer bytes = map(file, limit);
        if (!continues) {
            walkBoundary = 0;
        }
        walkAt = (int) position;
        walkRawFrom = walkAt;
        walkChecksum = 0;
        try {
            boolean sane = true;
            while (sane && walkAt < end) {
                sane = nextBatch(bytes, limit, (int) end);
            }
            walkChecksum = Crc32cCombine.combine(walkChecksum, crcOf(walkRawFrom, walkAt), walkAt - walkRawFrom);
        } catch (InternalError e) { // the file was cut under its mapping (SIGBUS on a mapped page)
            forgetMapping();
            throw new IOException("segment file shrank below " + limit + " bytes while it was read", e);
        }
        lastEnd = end;
        return walkChecksum;
    }

    /**
     * One step of {@link #of}'s walk: the batch whose header is at {@link #walkBoundary}. A batch wholly before the
     * range is stepped over; a whole batch of at least {@link #COMBINE_MIN_BYTES} inside it is combined from its stored
     * CRC (the bytes since {@link #walkRawFrom} checksummed first); any other piece is left to be checksummed byte by
     * byte. Returns false when the header there is not sane: the rest of the range is then checksummed byte by byte.
     * A method of its own, called once per batch, so that the JIT compiles it from its call count after a few thousand
     * batches; as one long loop the walk waited to be compiled on stack, in the middle of a broker's first move.
     */
    private boolean nextBatch(ByteBuffer bytes, long limit, int end) {
        int boundary = walkBoundary;
        headersRead++;
        if (boundary < 0 || BatchFraming.check(header.wrap(bytes, boundary), limit - boundary) != null) {
            walkBoundary = -1;
            walkAt = end;
            return false;
        }
        int at = walkAt;
        int size = header.sizeInBytes();
        int batchEnd = boundary + size;
        if (batchEnd <= at) {
            walkBoundary = batchEnd;
            return true;
        }
        int pieceEnd = Math.min(batchEnd, end);
        if (boundary == at && batchEnd == pieceEnd && size >= COMBINE_MIN_BYTES) {
            int before = Crc32cCombine.combine(walkChecksum, crcOf(walkRawFrom, at), at - walkRawFrom);
            walkChecksum = withWholeBatch(before, boundary);
            batchesCombined++;
            walkRawFrom = pieceEnd;
        }
        walkAt = pieceEnd;
        if (pieceEnd == batchEnd) {
            walkBoundary = batchEnd;
        }
        return true;
    }

    /**
     * {@link #of(FileChannel, long, int, long)} from the segment's batch headers as they were appended, where
     * {@code headers} (null: none kept) covers the segment's {@code limit} bytes and the range is in the page cache: a
     * whole batch inside the range is combined from the two checksums the table holds for it, so only the bytes of the
     * two batches the range cuts are read (from the mapping). Otherwise the headers are walked as
     * {@link #of(FileChannel, long, int, long)} does, from the table's batch boundary at or before the range where
     * there is a table: a range not in the page cache is then read in by the walk's page faults, on the caller's thread
     * and ahead of its sending, where with the table alone the sender would read it from the disk itself (moves of a
     * 1 GB partition from the disk took 6% longer so, docs/benchmarks.md section 10).
     */
    public int of(FileChannel file, long position, int length, long limit, BatchHeaderTable headers)
            throws IOException {
        int count = headers == null ? 0 : headers.count();
        if (count == 0 || headers.end() != limit) {
            return of(file, position, length, limit);
        }
        long end = checkedEnd(position, length, limit);
        map(file, limit);
        if (!residency.resident(mapped, (int) position, length)) {
            int next = headers.firstAtOrAfter((int) position, count);
            boolean onBoundary = next < count && headers.position(next) == position;
            walkBoundary = onBoundary || next == 0 ? (int) position : headers.position(next - 1);
            lastEnd = position; // the walk continues from that boundary
            return of(file, position, length, limit);
        }
        rangesFromTable++;
        lastEnd = -1; // a later walk starts from the file's start
        int checksum;
        try {
            int at = (int) position;
            int i = headers.firstAtOrAfter(at, count);
            int wholeFrom = Math.min(i < count ? headers.position(i) : (int) end, (int) end);
            checksum = crcOf(at, wholeFrom);
            at = wholeFrom;
            for (; i < count && headers.endOf(i, count) <= end; i++) {
                int batchEnd = headers.endOf(i, count);
                checksum = overWholeBatch(checksum, headers.headerCrc(i), batchEnd - at, headers.storedCrc(i));
                at = batchEnd;
                batchesCombined++;
            }
            checksum = Crc32cCombine.combine(checksum, crcOf(at, (int) end), end - at);
        } catch (InternalError e) { // the file was cut under its mapping (SIGBUS on a mapped page)
            forgetMapping();
            throw new IOException("segment file shrank below " + limit + " bytes while it was read", e);
        }
        return checksum;
    }

    /** CRC-32C of a range of a file that is not a segment (a producer snapshot): every byte is read. */
    public int ofBytes(FileChannel file, long position, int length) throws IOException {
        if (readBuffer == null) {
            readBuffer = ByteBuffer.allocateDirect(READ_BYTES);
        }
        crc.reset();
        long at = position;
        long end = position + length;
        while (at < end) {
            readBuffer.clear().limit((int) Math.min(readBuffer.capacity(), end - at));
            int read = file.read(readBuffer, at);
            if (read <= 0) {
                throw new IOException("file ends at " + at + ", inside the range [" + position + ", " + end + ")");
            }
            readBuffer.flip();
            crc.update(readBuffer);
            at += read;
        }
        bytesChecksummed += length;
        return (int) crc.getValue();
    }

    /** Whole batches vouched for from their stored checksum so far. */
    public long batchesCombined() {
        return batchesCombined;
    }

    /** Bytes checksummed one by one so far (small and cut batches, insane headers, other files). */
    public long bytesChecksummed() {
        return bytesChecksummed;
    }

    /** Batch headers the walk read so far. */
    public long headersRead() {
        return headersRead;
    }

    /** Ranges checksummed from a batch header table so far. */
    public long rangesFromTable() {
        return rangesFromTable;
    }

    private ByteBuffer map(FileChannel file, long limit) throws IOException {
        if (file != mappedFile || limit != mappedLimit) {
            forgetMapping();
            if (file.size() < limit) {
                throw new IOException("segment file holds " + file.size() + " bytes, fewer than its " + limit);
            }
            mapped = file.map(FileChannel.MapMode.READ_ONLY, 0, limit);
            view = mapped.duplicate();
            mappedFile = file;
            mappedLimit = limit;
        }
        return mapped;
    }

    private void forgetMapping() {
        mapped = null;
        view = null;
        mappedFile = null;
        mappedLimit = -1;
        lastEnd = -1;
    }

    /**
     * {@code checksum} (of the bytes before the batch at {@code start}) continued over that whole batch: its header
     * bytes up to the attributes are appended, then the rest, whose checksum the batch stores. Three multiplications
     * for a batch below 64 KiB: one to make room for the header bytes, two for the rest.
     */
    private int withWholeBatch(int checksum, int start) {
        crc.reset();
        crc.update(view.clear().position(start).limit(start + ATTRIBUTES_OFFSET));
        return overWholeBatch(checksum, (int) crc.getValue(), header.sizeInBytes(), header.storedCrc());
    }

    /**
     * {@code checksum} continued over a whole batch of {@code size} bytes whose first
     * {@link io.sluice.record.batch.RecordBatchDescriptor#ATTRIBUTES_OFFSET} bytes have CRC-32C {@code headerCrc} and
     * whose rest has the CRC-32C it stores.
     */
    private static int overWholeBatch(int checksum, int headerCrc, int size, int storedCrc) {
        int throughHeader = Crc32cCombine.shift(checksum, ATTRIBUTES_OFFSET) ^ headerCrc;
        return Crc32cCombine.shift(throughHeader, size - ATTRIBUTES_OFFSET) ^ storedCrc;
    }

    /** The end of the range, which must lie inside the segment's first {@code limit} bytes (at most 2 GiB). */
    private static long checkedEnd(long position, int length, long limit) throws IOException {
        long end = position + length;
        if (position < 0 || length < 0 || end > limit || limit > Integer.MAX_VALUE) {
            throw new IOException(
                    "range [" + position + ", " + end + ") is not inside the " + limit + " bytes of the segment");
        }
        return end;
    }

    private int crcOf(int from, int to) {
        if (from == to) {
            return 0;
        }
        crc.reset();
        crc.update(view.clear().position(from).limit(to));
        bytesChecksummed += to - from;
        return (int) crc.getValue();
    }
}
