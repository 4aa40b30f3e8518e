package io.sluice.record.compress;

import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHashFactory;

/**
 * LZ4 frames as Kafka writes them: version 1 with independent 64 KiB blocks, no checksums, each
 * block stored raw (high size bit) when compression would not shrink it, ended by a zero size.
 *
 * <p>Not thread-safe; one per validator.
 */
public final class Lz4PayloadCompressor implements PayloadCompressor {

    private static final byte FLG_V1_INDEPENDENT_BLOCKS = 0x60;
    private static final byte BD_64_KIB = 0x40;
    private static final int BLOCK_SIZE = 64 * 1024;
    private static final int HEADER_LENGTH =
            Lz4FrameLayout.HEADER_CHECKSUM_OFFSET + Lz4FrameLayout.HEADER_CHECKSUM_LENGTH;

    private final LZ4Compressor compressor = LZ4Factory.fastestInstance().fastCompressor();
    private final int headerChecksum;

    public Lz4PayloadCompressor() {
        byte[] descriptor = {FLG_V1_INDEPENDENT_BLOCKS, BD_64_KIB};
        headerChecksum = (XXHashFactory.fastestInstance().hash32().hash(descriptor, 0, 2, 0) >> 8) & 0xff;
    }

    @Override
    public int maxCompressedLength(int length) {
        int blocks = Math.max(1, (length + BLOCK_SIZE - 1) / BLOCK_SIZE);
        long bound = HEADER_LENGTH
                + (long) blocks * (Integer.BYTES + compressor.maxCompressedLength(BLOCK_SIZE))
                + Integer.BYTES;
        return (int) Math.min(Integer.MAX_VALUE - 8, bound);
    }

    @Override
    public int compress(ByteBuffer source, int from, int to, ByteBuffer target, int at) {
        target.putInt(at, Integer.reverseBytes(Lz4FrameLayout.MAGIC));
        target.put(at + Lz4FrameLayout.FLG_OFFSET, FLG_V1_INDEPENDENT_BLOCKS);
        target.put(at + Lz4FrameLayout.BD_OFFSET, BD_64_KIB);
        target.put(at + Lz4FrameLayout.HEADER_CHECKSUM_OFFSET, (byte) headerChecksum);
        int out = at + HEADER_LENGTH;
        for (int block = from; block < to; block += BLOCK_SIZE) {
            int length = Math.min(to, block + BLOCK_SIZE) - block;
            int data = out + Integer.BYTES;
            int written = compressor.compress(source, block, length, target, data, target.capacity() - data);
            if (written >= length) {
                target.put(data, source, block, length);
                target.putInt(out, Integer.reverseBytes(length | Lz4FrameLayout.STORED_BLOCK_FLAG));
                written = length;
            } else {
                target.putInt(out, Integer.reverseBytes(written));
            }
            out = data + written;
        }
        target.putInt(out, 0);
        return out + Integer.BYTES - at;
    }

    @Override
    public void close() {
        // lz4-java keeps no per-stream native state.
    }
}
