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
 * included (size the limit as ZooKeeper's jute.maxbuffer minus the znode overhead). Parts are filled as bytes arrive,
 * so memory is the compressed size plus one header per part. Not thread-safe; one per stream being split.
 */
public final class PartSplitter implements ByteSink {
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
            }
            int n = Math.min(len, partLimit - currentPos);
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
            }
            int n = Math.min(src.remaining(), partLimit - currentPos);
            src.get(current, currentPos, n);
            currentPos += n;
        }
    }

    private void startPart() {
        if (current != null) {
            parts.add(current);
        }
        current = new byte[partLimit];
        currentPos = PartDescriptor.HEADER_LENGTH;
    }

    /** Closes the stream: trims the last part and stamps every header. The splitter is spent afterwards. */
    public List<byte[]> finish(Compression compression) {
        if (total > Integer.MAX_VALUE) {
            throw new IllegalStateException("compressed stream of " + total + " bytes exceeds the part format");
        }
        if (current == null) {
            startPart();
        }
        parts.add(currentPos == partLimit ? current : Arrays.copyOf(current, currentPos));
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
