package io.sluice.codec.part;

import io.sluice.codec.compress.Compression;
import io.sluice.codec.error.ChecksumMismatchException;
import io.sluice.codec.error.LimitExceededException;
import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.error.TruncatedInputException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Verifies and orders the parts written by {@link PartSplitter}, in any order: headers agree, every index from 0 to
 * count-1 is present exactly once, each part's CRC-32C and the whole stream's CRC-32C match, lengths add up. Nothing
 * is copied or allocated in proportion to declared sizes. Immutable; safe to share.
 */
public final class PartAssembler {
    private final int maxParts;
    private final int maxTotalBytes;

    public PartAssembler(int maxParts, int maxTotalBytes) {
        this.maxParts = maxParts;
        this.maxTotalBytes = maxTotalBytes;
    }

    public AssembledStream assemble(List<byte[]> parts) {
        if (parts.isEmpty()) {
            throw new TruncatedInputException("state parts: none given");
        }
        if (parts.size() > maxParts) {
            throw new LimitExceededException("state parts: part count", parts.size(), maxParts);
        }
        byte[] first = requireHeader(parts.get(0), 0);
        ByteBuffer fh = ByteBuffer.wrap(first);
        int count = fh.getInt(PartDescriptor.COUNT_OFFSET);
        int total = fh.getInt(PartDescriptor.TOTAL_LENGTH_OFFSET);
        int streamCrc = fh.getInt(PartDescriptor.STREAM_CRC_OFFSET);
        byte compressionId = fh.get(PartDescriptor.COMPRESSION_OFFSET);
        Compression compression = Compression.byId(compressionId);
        if (compression == null) {
            throw new MalformedInputException("state part 0: unknown compression id " + compressionId);
        }
        if (count < 1 || count > maxParts) {
            throw new LimitExceededException("state parts: declared part count", count, maxParts);
        }
        if (total < 0 || total > maxTotalBytes) {
            throw new LimitExceededException("state parts: declared total length", total, maxTotalBytes);
        }
        if (parts.size() != count) {
            throw new TruncatedInputException("state parts: " + parts.size() + " given, header declares " + count);
        }
        byte[][] ordered = new byte[count][];
        CRC32C crc = new CRC32C();
        long sum = 0;
        for (int i = 0; i < parts.size(); i++) {
            byte[] p = requireHeader(parts.get(i), i);
            ByteBuffer h = ByteBuffer.wrap(p);
            int index = h.getInt(PartDescriptor.INDEX_OFFSET);
            requireSame(i, "part count", count, h.getInt(PartDescriptor.COUNT_OFFSET));
            requireSame(i, "total length", total, h.getInt(PartDescriptor.TOTAL_LENGTH_OFFSET));
            requireSame(i, "stream checksum", streamCrc, h.getInt(PartDescriptor.STREAM_CRC_OFFSET));
            requireSame(i, "compression id", compressionId, h.get(PartDescriptor.COMPRESSION_OFFSET));
            if (index < 0 || index >= count) {
                throw new MalformedInputException(
                        "state part at position " + i + ": index " + index + " outside 0.." + (count - 1));
            }
            if (ordered[index] != null) {
                throw new MalformedInputException("state parts: index " + index + " appears twice");
            }
            crc.reset();
            crc.update(p, PartDescriptor.PAYLOAD_OFFSET, p.length - PartDescriptor.PAYLOAD_OFFSET);
            int stored = h.getInt(PartDescriptor.PART_CRC_OFFSET);
            if ((int) crc.getValue() != stored) {
                throw new ChecksumMismatchException("state part " + index, stored, (int) crc.getValue());
            }
            sum += p.length - PartDescriptor.PAYLOAD_OFFSET;
            ordered[index] = p;
        }
        if (sum != total) {
            throw new MalformedInputException(
                    "state parts: payloads add up to " + sum + " bytes, header declares " + total);
        }
        crc.reset();
        List<ByteBuffer> payloads = new ArrayList<>(count);
        for (byte[] p : ordered) {
            crc.update(p, PartDescriptor.PAYLOAD_OFFSET, p.length - PartDescriptor.PAYLOAD_OFFSET);
            payloads.add(ByteBuffer.wrap(p, PartDescriptor.PAYLOAD_OFFSET, p.length - PartDescriptor.PAYLOAD_OFFSET)
                    .slice());
        }
        if ((int) crc.getValue() != streamCrc) {
            throw new ChecksumMismatchException("state stream", streamCrc, (int) crc.getValue());
        }
        return new AssembledStream(compression, List.copyOf(payloads), total);
    }

    private static byte[] requireHeader(byte[] p, int position) {
        if (p == null || p.length < PartDescriptor.HEADER_LENGTH) {
            throw new TruncatedInputException("state part at position " + position + ": "
                    + (p == null ? "missing" : p.length + " bytes") + ", shorter than the "
                    + PartDescriptor.HEADER_LENGTH + "-byte header");
        }
        ByteBuffer h = ByteBuffer.wrap(p);
        short magic = h.getShort(PartDescriptor.MAGIC_OFFSET);
        if (magic != PartDescriptor.MAGIC) {
            throw new MalformedInputException(
                    "state part at position " + position + ": magic 0x" + Integer.toHexString(magic & 0xFFFF)
                            + ", expected 0x" + Integer.toHexString(PartDescriptor.MAGIC));
        }
        byte version = h.get(PartDescriptor.VERSION_OFFSET);
        if (version != PartDescriptor.VERSION) {
            throw new MalformedInputException("state part at position " + position + ": format version " + version
                    + ", expected " + PartDescriptor.VERSION);
        }
        return p;
    }

    private static void requireSame(int position, String field, int expected, int actual) {
        if (expected != actual) {
            throw new MalformedInputException("state part at position " + position + ": " + field + " " + actual
                    + " differs from part 0's " + expected);
        }
    }

    @Override
    public String toString() {
        return "PartAssembler{maxParts=" + maxParts + ", maxTotalBytes=" + maxTotalBytes + "}";
    }
}
