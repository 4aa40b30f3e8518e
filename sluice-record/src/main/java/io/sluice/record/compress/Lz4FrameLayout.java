package io.sluice.record.compress;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The LZ4 frame format as Kafka writes and reads it (KafkaLZ4BlockOutputStream and
 * KafkaLZ4BlockInputStream); multi-byte fields are little-endian:
 * <pre>
 *   0  magic             int32  0x184D2204
 *   4  FLG               1 byte version (bits 7-6) = 01, block independence (5), block checksum (4),
 *                               content size (3), content checksum (2), reserved (1-0) = 0
 *   5  BD                1 byte reserved (7), block maximum size id 4..7 (6-4), reserved (3-0)
 *   6  content size      int64, only when FLG's content size bit is set
 *   .  header checksum   1 byte (xxHash32(FLG .. the last descriptor byte, seed 0) &gt;&gt; 8) &amp; 0xff
 *   then blocks:         int32 size (high bit: data stored uncompressed), data,
 *                        int32 xxHash32(data) when FLG's block checksum bit is set
 *   end mark             int32 0
 *   content checksum     int32, when FLG's content checksum bit is set
 * </pre>
 *
 * <p>Stateless; thread-safe.
 */
final class Lz4FrameLayout {

    static final int MAGIC = 0x184D2204;
    static final int MAGIC_OFFSET = 0;
    static final int MAGIC_LENGTH = Integer.BYTES;
    static final int FLG_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
    static final int BD_OFFSET = FLG_OFFSET + 1;
    static final int CONTENT_SIZE_OFFSET = BD_OFFSET + 1;
    static final int CONTENT_SIZE_LENGTH = Long.BYTES;
    /** Where the header checksum sits when the content size is absent, or follows it. */
    static final int HEADER_CHECKSUM_OFFSET = CONTENT_SIZE_OFFSET;

    static final int HEADER_CHECKSUM_OFFSET_WITH_CONTENT_SIZE = CONTENT_SIZE_OFFSET + CONTENT_SIZE_LENGTH;
    static final int HEADER_CHECKSUM_LENGTH = 1;
    /** Block sizes, block checksums, the end mark and the content checksum. */
    static final int FRAME_INT_LENGTH = Integer.BYTES;

    static final int VERSION_MASK = 0xC0;
    static final int SUPPORTED_VERSION = 0x40;
    static final int FLG_RESERVED_MASK = 0x03;
    static final int FLG_BLOCK_CHECKSUM = 0x10;
    static final int FLG_CONTENT_SIZE = 0x08;
    static final int FLG_CONTENT_CHECKSUM = 0x04;
    static final int BD_RESERVED_MASK = 0x8F;
    static final int BD_BLOCK_SIZE_SHIFT = 4;
    static final int BD_BLOCK_SIZE_MASK = 0x07;
    static final int BD_MIN_BLOCK_SIZE_ID = 4;
    static final int STORED_BLOCK_FLAG = 0x80000000;
    static final int END_MARK = 0;

    private Lz4FrameLayout() {}

    /** The largest block a frame whose BD byte names {@code blockSizeId} may hold: 64 KiB for id 4 up to 4 MiB. */
    static int maxBlockSize(int blockSizeId) {
        return 1 << (2 * blockSizeId + 8);
    }

    /**
     * The source ranges holding the content of the frame whose blocks start at {@code firstBlock}
     * and which ends at {@code to}, when every block is stored uncompressed, none is larger than
     * {@code maxBlockSize} or runs past {@code to}, the end mark is followed by nothing (the frame
     * must carry no checksums: the caller refuses those), and the blocks hold
     * {@code contentSize} bytes unless it is negative (not declared). Written into {@code ranges} as
     * from/to pairs (empty blocks omitted); returns the number of ranges, or
     * {@link PayloadDecompressor#NOT_STORED} for anything else, for more ranges than the array
     * holds, or for more than {@code maxBytes} bytes in all. Reads block sizes only.
     */
    static int storedBlockRanges(
            ByteBuffer frame, int firstBlock, int to, int maxBlockSize, long contentSize, long maxBytes, int[] ranges) {
        int count = 0;
        long total = 0;
        int p = firstBlock;
        while (true) {
            if (to - p < FRAME_INT_LENGTH) {
                return PayloadDecompressor.NOT_STORED;
            }
            int rawSize = int32(frame, p);
            p += FRAME_INT_LENGTH;
            if (rawSize == END_MARK) {
                break;
            }
            int size = rawSize & ~STORED_BLOCK_FLAG;
            if ((rawSize & STORED_BLOCK_FLAG) == 0 || size > maxBlockSize || size > to - p) {
                return PayloadDecompressor.NOT_STORED;
            }
            total += size;
            if (total > maxBytes) {
                return PayloadDecompressor.NOT_STORED;
            }
            count = StoredRanges.append(ranges, count, p, p + size);
            if (count == PayloadDecompressor.NOT_STORED) {
                return PayloadDecompressor.NOT_STORED;
            }
            p += size;
        }
        if (p != to || (contentSize >= 0 && contentSize != total)) {
            return PayloadDecompressor.NOT_STORED;
        }
        return count;
    }

    /** The little-endian int at {@code at}, whatever the buffer's byte order. */
    static int int32(ByteBuffer source, int at) {
        int value = source.getInt(at);
        return source.order() == ByteOrder.LITTLE_ENDIAN ? value : Integer.reverseBytes(value);
    }

    /** The little-endian long at {@code at}, whatever the buffer's byte order. */
    static long int64(ByteBuffer source, int at) {
        long value = source.getLong(at);
        return source.order() == ByteOrder.LITTLE_ENDIAN ? value : Long.reverseBytes(value);
    }
}
