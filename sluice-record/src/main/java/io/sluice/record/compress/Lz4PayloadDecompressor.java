package io.sluice.record.compress;

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
    private static final int MAGIC = 0x184D2204;
    private static final int MAGIC_LENGTH = Integer.BYTES;
    private static final int FLG_OFFSET = MAGIC_LENGTH;
    private static final int BD_OFFSET = FLG_OFFSET + 1;
    private static final int CONTENT_SIZE_OFFSET = BD_OFFSET + 1;
    private static final int CONTENT_SIZE_LENGTH = Long.BYTES;
    private static final int FRAME_INT_LENGTH = Integer.BYTES;
    private static final int VERSION_MASK = 0xC0;
    private static final int SUPPORTED_VERSION = 0x40;
    private static final int FLG_RESERVED_MASK = 0x03;
    private static final int FLG_BLOCK_CHECKSUM = 0x10;
    private static final int FLG_CONTENT_SIZE = 0x08;
    private static final int FLG_CONTENT_CHECKSUM = 0x04;
    private static final int BD_RESERVED_MASK = 0x8F;
    private static final int BD_BLOCK_SIZE_SHIFT = 4;
    private static final int BD_MIN_BLOCK_SIZE_ID = 4;
    private static final int STORED_BLOCK_FLAG = 0x80000000;

    private final SourceWindow sources = new SourceWindow(false);
    private final LZ4SafeDecompressor decompressor = LZ4Factory.fastestInstance().safeDecompressor();
    private final XXHash32 hash = XXHashFactory.fastestInstance().hash32();
    /**
     * The frame header checksum covers 2-10 bytes: copied to an array and hashed in Java, not through
     * a JNI call per batch (the Java hash of a ByteBuffer would allocate a duplicate).
     */
    private final XXHash32 headerHash = XXHashFactory.fastestJavaInstance().hash32();
    private final byte[] headerBytes = new byte[CONTENT_SIZE_OFFSET + CONTENT_SIZE_LENGTH - FLG_OFFSET];
    private ByteBuffer input;
    private int position;
    private int end;
    private int maxBlockSize;
    private boolean blockChecksums;
    private boolean contentChecksum;
    private boolean ended;

    @Override
    public void begin(ByteBuffer source, int from, int to) throws BatchFormatException {
        input = sources.over(source, from, to);
        position = from;
        end = to;
        ended = false;
        if (to - from < CONTENT_SIZE_OFFSET + 1) {
            throw PayloadDecompressor.corrupt(CODEC, (to - from) + " bytes cannot hold a frame header");
        }
        int magic = Integer.reverseBytes(input.getInt(from));
        if (magic != MAGIC) {
            throw PayloadDecompressor.corrupt(CODEC, "frame magic 0x" + Integer.toHexString(magic) + ", expected 0x"
                    + Integer.toHexString(MAGIC));
        }
        int flg = input.get(from + FLG_OFFSET) & 0xff;
        int bd = input.get(from + BD_OFFSET) & 0xff;
        if ((flg & VERSION_MASK) != SUPPORTED_VERSION || (flg & FLG_RESERVED_MASK) != 0) {
            throw PayloadDecompressor.corrupt(CODEC, "frame FLG byte 0x" + Integer.toHexString(flg)
                    + " has an unsupported version or reserved bits");
        }
        int blockSizeId = bd >>> BD_BLOCK_SIZE_SHIFT & 0x07;
        if ((bd & BD_RESERVED_MASK) != 0 || blockSizeId < BD_MIN_BLOCK_SIZE_ID) {
            throw PayloadDecompressor.corrupt(CODEC, "frame BD byte 0x" + Integer.toHexString(bd)
                    + " has reserved bits or block size id " + blockSizeId);
        }
        maxBlockSize = 1 << (2 * blockSizeId + 8);
        blockChecksums = (flg & FLG_BLOCK_CHECKSUM) != 0;
        contentChecksum = (flg & FLG_CONTENT_CHECKSUM) != 0;
        int checksumAt = (flg & FLG_CONTENT_SIZE) != 0 ? CONTENT_SIZE_OFFSET + CONTENT_SIZE_LENGTH : CONTENT_SIZE_OFFSET;
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
        position = from + checksumAt + 1;
    }

    @Override
    public boolean refill(ByteWindow window) throws BatchFormatException {
        if (ended) {
            return false;
        }
        int rawSize = readInt("block size");
        if (rawSize == 0) {
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
            throw PayloadDecompressor.corrupt(CODEC, "block size " + size + " at byte " + position
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
        window.reserve(stored ? size : maxBlockSize);
        ByteBuffer out = window.buffer();
        int produced;
        if (stored) {
            out.put(window.limit(), input, block, size);
            produced = size;
        } else {
            try {
                produced = decompressor.decompress(input, block, size, out, window.limit(), maxBlockSize);
            } catch (LZ4Exception e) {
                throw PayloadDecompressor.corrupt(CODEC, "undecodable block at byte " + block, e);
            }
        }
        window.produced(produced);
        return true;
    }

    private int readInt(String what) throws BatchFormatException {
        if (end - position < FRAME_INT_LENGTH) {
            throw PayloadDecompressor.corrupt(CODEC, "frame truncated: " + what + " missing at byte " + position);
        }
        int value = Integer.reverseBytes(input.getInt(position));
        position += FRAME_INT_LENGTH;
        return value;
    }

    @Override
    public void close() {
        sources.release();
    }
}
