package io.sluice.record.clean;

import static io.sluice.record.batch.BatchFormatException.malformed;
import static io.sluice.record.batch.RecordBatchDescriptor.COMPRESSION_NONE;
import static io.sluice.record.batch.RecordBatchDescriptor.MIN_RECORD_BODY;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_OFFSET;

import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.ByteWindow;
import io.sluice.record.batch.RecordBatchView;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Every record of one stored v2 batch, decoded into reusable arrays: its absolute offset and timestamp, where its key
 * lies, whether it has a value, and the byte range a rebuilt batch copies verbatim (offset delta to the end of the
 * headers). A compressed payload is decompressed whole into one reused buffer; an uncompressed one is read in place.
 * Record layout in {@link io.sluice.record.batch.RecordBatchDescriptor}.
 *
 * <p>Not thread-safe; one per cleaner thread. Valid until the next {@link #decode}.
 */
public final class DecodedBatch implements AutoCloseable {
    /** Decompressed bytes gathered per codec call while a payload is drained. */
    private static final int DRAIN_CHUNK_BYTES = 64 * 1024;

    private final long maxDecompressedBytes;
    private final PayloadCodecs codecs = new PayloadCodecs();
    private final ByteWindow window = new ByteWindow();
    private final ByteWindow drain = new ByteWindow();
    private ByteBuffer plain;
    private ByteBuffer records;
    private int count;
    private long[] offsets = new long[16];
    private long[] timestamps = new long[16];
    private int[] copyFrom = new int[16];
    private int[] ends = new int[16];
    private int[] keyPositions = new int[16];
    private int[] keyLengths = new int[16];
    private boolean[] hasValue = new boolean[16];

    /** @param maxDecompressedBytes the most one compressed batch may decompress to (memory bound of the cleaner) */
    public DecodedBatch(long maxDecompressedBytes) {
        this.maxDecompressedBytes = maxDecompressedBytes;
    }

    /**
     * Decodes the records of {@code batch} (whole, inside its buffer).
     *
     * @return the number of records
     * @throws BatchFormatException when the records do not follow the layout, do not match the batch's record count, or
     *                              the payload does not decompress within the bound
     */
    public int decode(RecordBatchView batch) throws BatchFormatException {
        ByteBuffer source = batch.buffer();
        int from = batch.offset() + RECORDS_OFFSET;
        int to = batch.offset() + batch.sizeInBytes();
        int declared = batch.recordCount();
        if (declared < 0 || declared > (to - from) && batch.compressionId() == COMPRESSION_NONE) {
            throw malformed("record count " + declared + " cannot fit " + (to - from) + " bytes");
        }
        if (batch.compressionId() == COMPRESSION_NONE) {
            records = source;
            window.over(source, from, to);
        } else {
            var decompressor = codecs.decompressor(batch.compressionId());
            decompressor.begin(source, from, to);
            if (plain == null) {
                plain = ByteBuffer.allocateDirect(DRAIN_CHUNK_BYTES);
            }
            drain.streaming(plain, decompressor, maxDecompressedBytes).drainAll(DRAIN_CHUNK_BYTES);
            plain = drain.buffer();
            records = plain;
            window.over(plain, 0, drain.limit());
        }
        long base = batch.baseOffset();
        long baseTimestamp = batch.baseTimestamp();
        count = 0;
        for (int i = 0; i < declared; i++) {
            readRecord(base, baseTimestamp);
        }
        if (window.position() != window.limit()) {
            throw malformed((window.limit() - window.position()) + " bytes follow the " + declared + " records");
        }
        return count;
    }

    private void readRecord(long base, long baseTimestamp) throws BatchFormatException {
        int length = window.readVarint();
        int bodyStart = window.position();
        if (length < MIN_RECORD_BODY || length > window.limit() - bodyStart) {
            throw malformed(
                    "record " + count + " length " + length + " with " + (window.limit() - bodyStart) + " bytes left");
        }
        int end = bodyStart + length;
        window.readByte();
        long timestampDelta = window.readVarlong();
        int deltaStart = window.position();
        int offsetDelta = window.readVarint();
        int keyLength = window.readVarint();
        int keyPosition = window.position();
        if (keyLength < -1 || keyLength > end - keyPosition) {
            throw malformed("record " + count + " keyLength " + keyLength);
        }
        window.position(keyPosition + Math.max(0, keyLength));
        int valueLength = window.readVarint();
        if (valueLength < -1 || valueLength > end - window.position() || window.position() > end) {
            throw malformed("record " + count + " valueLength " + valueLength);
        }
        if (offsetDelta < 0) {
            throw malformed("record " + count + " offsetDelta " + offsetDelta);
        }
        window.position(end);
        grow();
        offsets[count] = base + offsetDelta;
        timestamps[count] = baseTimestamp + timestampDelta;
        copyFrom[count] = deltaStart;
        ends[count] = end;
        keyPositions[count] = keyPosition;
        keyLengths[count] = keyLength;
        hasValue[count] = valueLength >= 0;
        count++;
    }

    private void grow() {
        if (count < offsets.length) {
            return;
        }
        int n = offsets.length * 2;
        offsets = Arrays.copyOf(offsets, n);
        timestamps = Arrays.copyOf(timestamps, n);
        copyFrom = Arrays.copyOf(copyFrom, n);
        ends = Arrays.copyOf(ends, n);
        keyPositions = Arrays.copyOf(keyPositions, n);
        keyLengths = Arrays.copyOf(keyLengths, n);
        hasValue = Arrays.copyOf(hasValue, n);
    }

    /** Records decoded by the last {@link #decode}. */
    public int count() {
        return count;
    }

    /** The buffer the records' bytes lie in (the batch's own, or the decompression buffer). */
    public ByteBuffer records() {
        return records;
    }

    public long offset(int i) {
        return offsets[i];
    }

    /** Base timestamp plus the record's delta (the stored value, whatever the batch's timestamp type). */
    public long timestamp(int i) {
        return timestamps[i];
    }

    /** Index in {@link #records()} of the record's key bytes. */
    public int keyPosition(int i) {
        return keyPositions[i];
    }

    /** -1 for a null key. */
    public int keyLength(int i) {
        return keyLengths[i];
    }

    /** False for a tombstone (null value). */
    public boolean hasValue(int i) {
        return hasValue[i];
    }

    /** Index in {@link #records()} where the record's offset delta starts; a rebuilt record copies from here. */
    int copyFrom(int i) {
        return copyFrom[i];
    }

    /** Index in {@link #records()} just after the record. */
    int end(int i) {
        return ends[i];
    }

    /** Drops a decompression buffer grown above {@code maxRetainedBytes}, so one huge batch does not pin memory. */
    public void trim(int maxRetainedBytes) {
        if (plain != null && plain.capacity() > maxRetainedBytes) {
            plain = null;
            records = null;
        }
    }

    @Override
    public void close() {
        codecs.close();
        plain = null;
        records = null;
    }

    PayloadCodecs codecs() {
        return codecs;
    }
}
