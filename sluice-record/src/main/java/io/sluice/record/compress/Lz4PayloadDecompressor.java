package io.sluice.record.compress;

import static io.sluice.record.compress.Lz4FrameLayout.BD_BLOCK_SIZE_MASK;
import static io.sluice.record.compress.Lz4FrameLayout.BD_BLOCK_SIZE_SHIFT;
import static io.sluice.record.compress.Lz4FrameLayout.BD_MIN_BLOCK_SIZE_ID;
import static io.sluice.record.compress.Lz4FrameLayout.BD_OFFSET;
import static io.sluice.record.compress.Lz4FrameLayout.BD_RESERVED_MASK;
import static io.sluice.record.compress.Lz4FrameLayout.CONTENT_SIZE_OFFSET;
import static io.sluice.record.compress.Lz4FrameLayout.END_MARK;
import static io.sluice.record.compress.Lz4FrameLayout.FLG_BLOCK_CHECKSUM;
import static io.sluice.record.compress.Lz4FrameLayout.FLG_CONTENT_CHECKSUM;
import static io.sluice.record.compress.Lz4FrameLayout.FLG_CONTENT_SIZE;
import static io.sluice.record.compress.Lz4FrameLayout.FLG_OFFSET;
import static io.sluice.record.compress.Lz4FrameLayout.FLG_RESERVED_MASK;
import static io.sluice.record.compress.Lz4FrameLayout.FRAME_INT_LENGTH;
import static io.sluice.record.compress.Lz4FrameLayout.HEADER_CHECKSUM_LENGTH;
import static io.sluice.record.compress.Lz4FrameLayout.HEADER_CHECKSUM_OFFSET;
import static io.sluice.record.compress.Lz4FrameLayout.HEADER_CHECKSUM_OFFSET_WITH_CONTENT_SIZE;
import static io.sluice.record.compress.Lz4FrameLayout.MAGIC;
import static io.sluice.record.compress.Lz4FrameLayout.MAGIC_OFFSET;
import static io.sluice.record.compress.Lz4FrameLayout.STORED_BLOCK_FLAG;
import static io.sluice.record.compress.Lz4FrameLayout.SUPPORTED_VERSION;
import static io.sluice.record.compress.Lz4FrameLayout.VERSION_MASK;

import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.ByteWindow;
import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * lz4 payloads in the LZ4 frame format as Kafka writes it (KafkaLZ4BlockOutputStream): magic,
 * FLG/BD descriptor with its xxHash32 header checksum, then blocks of [int32 little-endian size,
 * high bit = stored][data][optional xxHash32], ended by a zero size. Each block is decompressed
 * in one call into the window.
 *
 * <p>Not thread-safe; one per validator.
 */
public final class Lz4PayloadDecompressor implements PayloadDecompressor {

    private static final String CODEC = "lz4";

    private final SourceWindow sources = new SourceWindow(false);
    private final LZ4SafeDecompressor decompressor =
            LZ4Factory.fastestInstance().safeDecompressor();
    private final XXHash32 hash = XXHashFactory.fastestInstance().hash32();
    /**
     * The frame header checksum covers 2-10 bytes: copied to an array and hashed in Java, not through
     * a JNI call per batch (the Java hash of a ByteBuffer would allocate a duplicate).
     */
    private final XXHash32 headerHash = XXHashFactory.fastestJavaInstance().hash32();

    private final byte[] headerBytes = new byte[HEADER_CHECKSUM_OFFSET_WITH_CONTENT_SIZE - FLG_OFFSET];
    private ByteBuffer input;
    private int position;
    private int end;
    /** The payload's first byte in {@link #input}: error messages count bytes from it. */
    private int payloadStart;

    private int maxBlockSize;
    private boolean blockChecksums;
    private boolean contentChecksum;
    private boolean ended;
    /** Where this payload's first block size sits; -1 until {@link #begin} has read a valid header. */
    private int firstBlock = -1;
    /**
     * The content size the header declares (the decoder ignores it, so do the stored ranges when
     * it reads as negative); -1 when it declares none.
     */
    private long contentSize;

    @Override
    public void begin(ByteBuffer source, int from, int to) throws BatchFormatException {
        input = sources.over(source, from, to);
        position = from;
        payloadStart = from;
        end = to;
        ended = false;
        firstBlock = -1;
        if (to - from < HEADER_CHECKSUM_OFFSET + HEADER_CHECKSUM_LENGTH) {
            throw PayloadDecompressor.corrupt(CODEC, (to - from) + " bytes cannot hold a frame header");
        }
        int magic = Lz4FrameLayout.int32(input, from + MAGIC_OFFSET);
        if (magic != MAGIC) {
            throw PayloadDecompressor.corrupt(
                    CODEC,
                    "frame magic 0x" + Integer.toHexString(magic) + ", expected 0x" + Integer.toHexString(MAGIC));
        }
        int flg = input.get(from + FLG_OFFSET) & 0xff;
        int bd = input.get(from + BD_OFFSET) & 0xff;
        if ((flg & VERSION_MASK) != SUPPORTED_VERSION || (flg & FLG_RESERVED_MASK) != 0) {
            throw PayloadDecompressor.corrupt(
                    CODEC,
                    "frame FLG byte 0x" + Integer.toHexString(flg) + " has an unsupported version or reserved bits");
        }
        int blockSizeId = bd >>> BD_BLOCK_SIZE_SHIFT & BD_BLOCK_SIZE_MASK;
        if ((bd & BD_RESERVED_MASK) != 0 || blockSizeId < BD_MIN_BLOCK_SIZE_ID) {
            throw PayloadDecompressor.corrupt(
                    CODEC,
                    "frame BD byte 0x" + Integer.toHexString(bd) + " has reserved bits or block size id "
                            + blockSizeId);
        }
        maxBlockSize = Lz4FrameLayout.maxBlockSize(blockSizeId);
        blockChecksums = (flg & FLG_BLOCK_CHECKSUM) != 0;
        contentChecksum = (flg & FLG_CONTENT_CHECKSUM) != 0;
        boolean sized = (flg & FLG_CONTENT_SIZE) != 0;
        int checksumAt = sized ? HEADER_CHECKSUM_OFFSET_WITH_CONTENT_SIZE : HEADER_CHECKSUM_OFFSET;
        if (to - from <= checksumAt) {
            throw PayloadDecompressor.corrupt(CODEC, "frame header runs past the payload end");
        }
        int headerLength = checksumAt - FLG_OFFSET;
        input.get(from + FLG_OFFSET, headerBytes, 0, headerLength);
        int expected = (headerHash.hash(headerBytes, 0, headerLength, 0) >> 8) & 0xff;
        int stored = input.get(from + checksumAt) & 0xff;
        if (expected != stored) {
            throw PayloadDecompressor.corrupt(CODEC, "frame header checksum " + stored + ", computed " + expected);
        }
        contentSize = sized ? Lz4FrameLayout.int64(input, from + CONTENT_SIZE_OFFSET) : -1;
        position = from + checksumAt + HEADER_CHECKSUM_LENGTH;
        firstBlock = position;
    }

    /**
     * The frame's blocks as they lie in the source, when all are stored uncompressed and the frame
     * carries no checksums (Kafka's clients write none; verifying them would read the content), its
     * declared content size, if any, matches, and nothing follows the end mark: then the decoder
     * accepts it and yields exactly these bytes. Reads block sizes only.
     */
    @Override
    public int storedRanges(long maxBytes, int[] ranges) {
        if (firstBlock < 0 || blockChecksums || contentChecksum) {
            return NOT_STORED;
        }
        return Lz4FrameLayout.storedBlockRanges(input, firstBlock, end, maxBlockSize, contentSize, maxBytes, ranges);
    }

    @Override
    public boolean refill(ByteWindow window) throws BatchFormatException {
        if (ended) {
            return false;
        }
        int rawSize = readInt("block size");
        if (rawSize == END_MARK) {
            if (contentChecksum) {
                readInt("content checksum");
            }
            if (position != end) {
                throw PayloadDecompressor.corrupt(CODEC, (end - position) + " bytes follow the end mark");
            }
            ended = true;
            return false;
        }
        boolean stored = (rawSize & STORED_BLOCK_FLAG) != 0;
        int size = rawSize & ~STORED_BLOCK_FLAG;
        if (size > maxBlockSize || size > end - position) {
            throw PayloadDecompressor.corrupt(
                    CODEC,
                    "block size " + size + " at byte " + (position - payloadStart)
                            + " exceeds the frame's max block size " + maxBlockSize + " or the " + (end - position)
                            + " bytes left");
        }
        int block = position;
        position += size;
        if (blockChecksums) {
            int storedHash = readInt("block checksum");
            int computed = hash.hash(input, block, size, 0);
            if (storedHash != computed) {
                throw PayloadDecompressor.corrupt(CODEC, "block checksum " + storedHash + ", computed " + computed);
            }
        }
        if (stored) {
            window.reserve(size);
        } else {
            window.reserveFormatBlock(maxBlockSize);
        }
        ByteBuffer out = window.buffer();
        int produced;
        if (stored) {
            out.put(window.limit(), input, block, size);
            produced = size;
        } else {
            try {
                produced = decompressor.decompress(input, block, size, out, window.limit(), maxBlockSize);
            } catch (LZ4Exception e) {
                throw PayloadDecompressor.corrupt(CODEC, "undecodable block at byte " + (block - payloadStart), e);
            }
        }
        window.produced(produced);
        return true;
    }

    private int readInt(String what) throws BatchFormatException {
        if (end - position < FRAME_INT_LENGTH) {
            throw PayloadDecompressor.corrupt(
                    CODEC, "frame truncated: " + what + " missing at byte " + (position - payloadStart));
        }
        int value = Lz4FrameLayout.int32(input, position);
        position += FRAME_INT_LENGTH;
        return value;
    }

    @Override
    public void close() {
        sources.release();
    }
}
