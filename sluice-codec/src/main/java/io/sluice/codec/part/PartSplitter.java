package io.sluice.codec.part;

import io.sluice.codec.compress.ByteSink;
import io.sluice.codec.compress.Compression;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * A {@link ByteSink} that cuts a compressed stream into parts of at most {@code partLimit} bytes each, header
 * included (size the limit as ZooKeeper's jute.maxbuffer minus the znode overhead). Bytes are gathered in one scratch
 * array and each part is copied out once, at its exact size, when it is full or the stream ends: a stream allocates
 * its compressed size plus one header per part. The scratch starts at {@value #FIRST_SCRATCH_BYTES} bytes, doubles up
 * to the limit as a stream needs, and is kept for the next stream ({@link #finish} readies the splitter for one), so a
 * long-lived splitter holds at most one limit-sized array. Not thread-safe; one per thread that publishes.
 */
public final class PartSplitter implements ByteSink {
    /** Typical control-plane deltas fit; larger states grow the scratch by doubling, once. */
    static final int FIRST_SCRATCH_BYTES = 4096;

    private final int partLimit;
    private final CRC32C streamCrc = new CRC32C();
    private List<byte[]> parts = new ArrayList<>();
    private byte[] scratch;
    private int scratchPos = PartDescriptor.HEADER_LENGTH;
    private long total;

    public PartSplitter(int partLimit) {
        if (partLimit <= PartDescriptor.HEADER_LENGTH) {
            throw new IllegalArgumentException("part limit " + partLimit + " must exceed the "
                    + PartDescriptor.HEADER_LENGTH + "-byte part header");
        }
        this.partLimit = partLimit;
    }

    @Override
    public void write(byte[] src, int off, int len) {
        streamCrc.update(src, off, len);
        total += len;
        while (len > 0) {
            int n = Math.min(len, room());
            System.arraycopy(src, off, scratch, scratchPos, n);
            scratchPos += n;
            off += n;
            len -= n;
        }
    }

    @Override
    public void write(ByteBuffer src) {
        ByteBuffer crcView = src.duplicate();
        streamCrc.update(crcView);
        total += src.remaining();
        while (src.hasRemaining()) {
            int n = Math.min(src.remaining(), room());
            src.get(scratch, scratchPos, n);
            scratchPos += n;
        }
    }

    /** Room for at least one more byte in the part being gathered: cuts a full part, grows the scratch. */
    private int room() {
        if (scratchPos == partLimit) {
            cutPart();
        }
        if (scratch == null) {
            scratch = new byte[Math.min(partLimit, FIRST_SCRATCH_BYTES)];
        } else if (scratchPos == scratch.length) {
            scratch = Arrays.copyOf(scratch, (int) Math.min(partLimit, scratch.length * 2L));
        }
        return scratch.length - scratchPos;
    }

    /** Copies the part gathered so far out of the scratch, at its exact size. */
    private void cutPart() {
        parts.add(scratch == null ? new byte[scratchPos] : Arrays.copyOf(scratch, scratchPos));
        scratchPos = PartDescriptor.HEADER_LENGTH;
    }

    /** Drops a stream that failed midway; the splitter then starts a new stream, keeping its scratch. */
    public void discard() {
        parts = new ArrayList<>();
        scratchPos = PartDescriptor.HEADER_LENGTH;
        streamCrc.reset();
        total = 0;
    }

    /**
     * Closes the stream: cuts the last part and stamps every header. The splitter then starts a new stream, keeping its
     * scratch.
     */
    public List<byte[]> finish(Compression compression) {
        if (total > Integer.MAX_VALUE) {
            throw new IllegalStateException("compressed stream of " + total + " bytes exceeds the part format");
        }
        cutPart();
        List<byte[]> finished = parts;
        int count = finished.size();
        int streamChecksum = (int) streamCrc.getValue();
        CRC32C partCrc = new CRC32C();
        for (int i = 0; i < count; i++) {
            byte[] p = finished.get(i);
            partCrc.reset();
            partCrc.update(p, PartDescriptor.PAYLOAD_OFFSET, p.length - PartDescriptor.PAYLOAD_OFFSET);
            ByteBuffer h = ByteBuffer.wrap(p);
            h.putShort(PartDescriptor.MAGIC_OFFSET, PartDescriptor.MAGIC);
            h.put(PartDescriptor.VERSION_OFFSET, PartDescriptor.VERSION);
            h.put(PartDescriptor.COMPRESSION_OFFSET, (byte) compression.id());
            h.putInt(PartDescriptor.INDEX_OFFSET, i);
            h.putInt(PartDescriptor.COUNT_OFFSET, count);
            h.putInt(PartDescriptor.TOTAL_LENGTH_OFFSET, (int) total);
            h.putInt(PartDescriptor.STREAM_CRC_OFFSET, streamChecksum);
            h.putInt(PartDescriptor.PART_CRC_OFFSET, (int) partCrc.getValue());
        }
        discard();
        return finished;
    }
}
