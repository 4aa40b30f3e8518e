package io.sluice.record.compress;

import java.io.ByteArrayOutputStream;
import java.util.Random;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * LZ4 frames forged by hand for {@link Lz4StoredRangesTest}: valid ones of stored and compressed
 * blocks with any of the frame's options, and ones with one field wrong.
 *
 * <p>Not thread-safe; one per test.
 */
final class Lz4Frames {

    static final int FLG_V1_INDEPENDENT = Lz4FrameLayout.SUPPORTED_VERSION | 0x20;
    static final int BD_64_KIB = Lz4FrameLayout.BD_MIN_BLOCK_SIZE_ID << Lz4FrameLayout.BD_BLOCK_SIZE_SHIFT;
    private static final XXHash32 HASH = XXHashFactory.safeInstance().hash32();

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final int flg;

    /** Starts a frame: magic, FLG, BD, the content size when FLG says so, and a correct header checksum. */
    Lz4Frames(int flg, int bd, long contentSize) {
        this(flg, bd, contentSize, 0);
    }

    /** As {@link #Lz4Frames(int, int, long)}, with {@code checksumError} xored into the header checksum. */
    Lz4Frames(int flg, int bd, long contentSize, int checksumError) {
        this.flg = flg;
        littleEndian(Lz4FrameLayout.MAGIC, Integer.BYTES);
        ByteArrayOutputStream descriptor = new ByteArrayOutputStream();
        descriptor.write(flg);
        descriptor.write(bd);
        if ((flg & Lz4FrameLayout.FLG_CONTENT_SIZE) != 0) {
            for (int i = 0; i < Long.BYTES; i++) {
                descriptor.write((int) (contentSize >>> (8 * i)));
            }
        }
        byte[] bytes = descriptor.toByteArray();
        out.write(bytes, 0, bytes.length);
        out.write(((HASH.hash(bytes, 0, bytes.length, 0) >> 8) & 0xff) ^ checksumError);
    }

    /** A block stored uncompressed, its size word as given (normally the data's length). */
    Lz4Frames stored(byte[] data, int sizeWord, int checksumError) {
        return block(data, sizeWord | Lz4FrameLayout.STORED_BLOCK_FLAG, checksumError);
    }

    Lz4Frames stored(byte[] data) {
        return stored(data, data.length, 0);
    }

    /** A block compressed by lz4-java (may be larger than its content for incompressible data). */
    Lz4Frames compressed(byte[] data) {
        byte[] block = LZ4Factory.safeInstance().fastCompressor().compress(data);
        return block(block, block.length, 0);
    }

    /** A block that claims to be compressed but holds {@code data} as is (usually undecodable). */
    Lz4Frames claimedCompressed(byte[] data) {
        return block(data, data.length, 0);
    }

    private Lz4Frames block(byte[] data, int sizeWord, int checksumError) {
        littleEndian(sizeWord, Integer.BYTES);
        out.write(data, 0, data.length);
        if ((flg & Lz4FrameLayout.FLG_BLOCK_CHECKSUM) != 0) {
            littleEndian(HASH.hash(data, 0, data.length, 0) ^ checksumError, Integer.BYTES);
        }
        return this;
    }

    /** Bytes as they are, anywhere in the frame. */
    Lz4Frames raw(byte[] bytes) {
        out.write(bytes, 0, bytes.length);
        return this;
    }

    /** The end mark and, when FLG says so, a content checksum (which the decoder does not verify). */
    byte[] end() {
        littleEndian(Lz4FrameLayout.END_MARK, Integer.BYTES);
        if ((flg & Lz4FrameLayout.FLG_CONTENT_CHECKSUM) != 0) {
            littleEndian(0x5EED, Integer.BYTES);
        }
        return out.toByteArray();
    }

    /** The bytes written so far, without an end mark. */
    byte[] unended() {
        return out.toByteArray();
    }

    private void littleEndian(long value, int bytes) {
        for (int i = 0; i < bytes; i++) {
            out.write((int) (value >>> (8 * i)));
        }
    }

    /**
     * A random frame: mostly well formed with stored blocks, sometimes with compressed blocks,
     * checksums, a content size (right or wrong), a wrong block size, no end mark or bytes after it.
     */
    static byte[] forged(Random random) {
        int flg = FLG_V1_INDEPENDENT;
        if (random.nextInt(4) == 0) {
            flg |= Lz4FrameLayout.FLG_BLOCK_CHECKSUM;
        }
        if (random.nextInt(4) == 0) {
            flg |= Lz4FrameLayout.FLG_CONTENT_SIZE;
        }
        if (random.nextInt(6) == 0) {
            flg |= Lz4FrameLayout.FLG_CONTENT_CHECKSUM;
        }
        int blockSizeId = Lz4FrameLayout.BD_MIN_BLOCK_SIZE_ID + (random.nextInt(4) == 0 ? 1 + random.nextInt(3) : 0);
        int blocks = random.nextInt(5);
        byte[][] data = new byte[blocks][];
        int[] kinds = new int[blocks];
        long total = 0;
        for (int b = 0; b < blocks; b++) {
            kinds[b] = random.nextInt(10);
            int size = switch (random.nextInt(6)) {
                case 0 -> 0;
                case 1 -> 1 + random.nextInt(16);
                case 2 -> Lz4FrameLayout.maxBlockSize(Lz4FrameLayout.BD_MIN_BLOCK_SIZE_ID) + random.nextInt(3) - 1;
                default -> random.nextInt(5000);
            };
            data[b] = kinds[b] == 9 ? new byte[size] : StoredPayloads.randomBytes(random, size);
            total += size;
        }
        long declared = random.nextInt(3) == 0 ? total + random.nextInt(3) - 1 : total;
        Lz4Frames frame = new Lz4Frames(
                flg, blockSizeId << Lz4FrameLayout.BD_BLOCK_SIZE_SHIFT, declared, random.nextInt(40) == 0 ? 1 : 0);
        for (int b = 0; b < blocks; b++) {
            int checksumError = random.nextInt(5) == 0 ? 1 << random.nextInt(32) : 0;
            switch (kinds[b]) {
                case 7 -> frame.claimedCompressed(data[b].length == 0 ? new byte[] {0} : data[b]);
                case 8, 9 -> frame.compressed(data[b].length == 0 ? new byte[1] : data[b]);
                case 6 -> frame.stored(data[b], data[b].length + random.nextInt(5) - 2, checksumError);
                default -> frame.stored(data[b], data[b].length, checksumError);
            }
        }
        return switch (random.nextInt(12)) {
            case 0 -> frame.unended();
            case 1 -> StoredPayloads.concat(frame.end(), StoredPayloads.randomBytes(random, 1 + random.nextInt(5)));
            case 2 -> StoredPayloads.concat(frame.unended(), new byte[] {0, 0, 0, 0});
            default -> frame.end();
        };
    }
}
