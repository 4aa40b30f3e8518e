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
 * included (size the limit as ZooKeeper's jute.maxbuffer minus the znode overhead). Parts are filled as bytes arrive;
 * the part being filled starts at {@value #FIRST_PART_BYTES} bytes and doubles up to the limit, so a small state does
 * not cost a whole limit-sized array and memory stays within about twice the compressed size plus one header per
 * part. Not thread-safe; one per stream being split.
 */
public final class PartSplitter implements ByteSink {
    /** Typical control-plane deltas fit; larger states grow by doubling. */
    static final int FIRST_PART_BYTES = 4096;

    private final int partLimit;
    private final List<byte[]> parts = new ArrayList<>();
    private final CRC32C streamCrc = new CRC32C();
    private byte[] current;
    private int currentPos;
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
            if (current == null || currentPos == partLimit) {
                startPart();
            } else if (currentPos == current.length) {
                grow();
            }
            int n = Math.min(len, current.length - currentPos);
            System.arraycopy(src, off, current, currentPos, n);
            currentPos += n;
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
            if (current == null || currentPos == partLimit) {
                startPart();
            } else if (currentPos == current.length) {
                grow();
            }
            int n = Math.min(src.remaining(), current.length - currentPos);
            src.get(current, currentPos, n);
            currentPos += n;
        }
    }

    private void startPart() {
        if (current != null) {
            parts.add(current);
        }
        current = new byte[Math.min(partLimit, FIRST_PART_BYTES)];
        currentPos = PartDescriptor.HEADER_LENGTH;
    }

    private void grow() {
        current = Arrays.copyOf(current, (int) Math.min(partLimit, current.length * 2L));
    }

    /** Closes the stream: trims the last part and stamps every header. The splitter is spent afterwards. */
    public List<byte[]> finish(Compression compression) {
        if (total > Integer.MAX_VALUE) {
            throw new IllegalStateException("compressed stream of " + total + " bytes exceeds the part format");
        }
        if (current == null) {
            startPart();
        }
        parts.add(currentPos == current.length ? current : Arrays.copyOf(current, currentPos));
        current = null;
        int count = parts.size();
        int streamChecksum = (int) streamCrc.getValue();
        CRC32C partCrc = new CRC32C();
        for (int i = 0; i < count; i++) {
            byte[] p = parts.get(i);
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
        return parts;
    }
}
