package io.sluice.record.compress;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;

/**
 * snappy payloads forged by hand for {@link SnappyStoredRangesTest}: xerial chunks and raw blocks
 * of literals with every length encoding, and ones with a length, tag or varint wrong.
 *
 * <p>Not thread-safe; one per test.
 */
final class SnappyFrames {

    static final int COPY_1_BYTE_OFFSET = 1;
    static final int COPY_2_BYTE_OFFSET = 2;
    static final int COPY_4_BYTE_OFFSET = 3;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** The xerial header with the given compatible version (1 is what snappy-java writes). */
    static byte[] xerialHeader(int compatibleVersion) {
        SnappyFrames header = new SnappyFrames();
        header.raw(SnappyFrameLayout.XERIAL_MAGIC);
        header.bigEndian(1);
        header.bigEndian(compatibleVersion);
        return header.bytes();
    }

    /** The uncompressed length in {@code bytes} varint bytes (at least as many as it needs). */
    SnappyFrames varint(long value, int bytes) {
        long rest = value;
        for (int i = 0; i < bytes; i++) {
            int group = (int) (rest & 0x7f);
            rest >>>= 7;
            out.write(i < bytes - 1 ? group | 0x80 : group);
        }
        return this;
    }

    SnappyFrames varint(long value) {
        int bytes = 1;
        while (value >>> (7 * bytes) != 0) {
            bytes++;
        }
        return varint(value, bytes);
    }

    /** A literal tag for {@code length} bytes with its length in {@code lengthBytes} bytes after the tag (0: in the tag). */
    SnappyFrames literalTag(long length, int lengthBytes) {
        if (lengthBytes == 0) {
            out.write((int) (length - 1) << SnappyFrameLayout.TAG_LITERAL_LENGTH_SHIFT);
            return this;
        }
        out.write((SnappyFrameLayout.LITERAL_LENGTH_IN_TAG_LIMIT - 1 + lengthBytes)
                << SnappyFrameLayout.TAG_LITERAL_LENGTH_SHIFT);
        for (int i = 0; i < lengthBytes; i++) {
            out.write((int) ((length - 1) >>> (8 * i)));
        }
        return this;
    }

    /** A literal of {@code data}, its length in the fewest bytes. */
    SnappyFrames literal(byte[] data) {
        int lengthBytes = 0;
        while (data.length - 1
                >= (lengthBytes == 0 ? SnappyFrameLayout.LITERAL_LENGTH_IN_TAG_LIMIT : 1L << (8 * lengthBytes))) {
            lengthBytes++;
        }
        literalTag(data.length, lengthBytes);
        return raw(data);
    }

    /** A copy of {@code length} (4..11) bytes from {@code offset} (1..2047) back, with a 1-byte offset. */
    SnappyFrames copy(int length, int offset) {
        out.write(COPY_1_BYTE_OFFSET | (length - 4) << 2 | (offset >>> 8) << 5);
        out.write(offset & 0xff);
        return this;
    }

    /** A copy of {@code length} (1..64) bytes from {@code offset} back, its offset in {@code offsetBytes} (2 or 4) bytes. */
    SnappyFrames longCopy(int length, int offset, int offsetBytes) {
        out.write((offsetBytes == 2 ? COPY_2_BYTE_OFFSET : COPY_4_BYTE_OFFSET) | (length - 1) << 2);
        for (int i = 0; i < offsetBytes; i++) {
            out.write(offset >>> (8 * i));
        }
        return this;
    }

    SnappyFrames raw(byte[] bytes) {
        out.write(bytes, 0, bytes.length);
        return this;
    }

    SnappyFrames bigEndian(int value) {
        for (int i = Integer.BYTES - 1; i >= 0; i--) {
            out.write(value >>> (8 * i));
        }
        return this;
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    /** A raw block: the varint of the literals' total length, then the literals. */
    static byte[] literalBlock(byte[]... literals) {
        SnappyFrames block = new SnappyFrames();
        long total = 0;
        for (byte[] literal : literals) {
            total += literal.length;
        }
        block.varint(total);
        for (byte[] literal : literals) {
            block.literal(literal);
        }
        return block.bytes();
    }

    /** An xerial payload of the given raw blocks, each as one chunk. */
    static byte[] framed(byte[]... blocks) {
        SnappyFrames payload = new SnappyFrames().raw(xerialHeader(SnappyFrameLayout.XERIAL_MIN_COMPATIBLE_VERSION));
        for (byte[] block : blocks) {
            payload.bigEndian(block.length).raw(block);
        }
        return payload.bytes();
    }

    /**
     * A random payload: mostly well formed literal blocks (lengths in the tag or in 1..4 bytes,
     * minimal or not), sometimes with a copy, a wrong declared length, a padded or overlong
     * varint, a chunk length that does not fit, a literal running past its block, or an unusual
     * header; xerial-framed or a single raw block.
     */
    static byte[] forged(Random random) {
        boolean framed = random.nextInt(5) != 0;
        SnappyFrames payload = new SnappyFrames();
        if (framed) {
            int compatible =
                    random.nextInt(20) == 0 ? random.nextInt(3) - 1 : SnappyFrameLayout.XERIAL_MIN_COMPATIBLE_VERSION;
            payload.raw(xerialHeader(compatible));
        }
        int blocks = framed ? random.nextInt(4) : 1;
        for (int b = 0; b < blocks; b++) {
            byte[] block = forgedBlock(random);
            if (framed) {
                int length = random.nextInt(10) == 0 ? block.length + random.nextInt(7) - 3 : block.length;
                payload.bigEndian(length);
            }
            payload.raw(block);
        }
        if (random.nextInt(15) == 0) {
            payload.raw(StoredPayloads.randomBytes(random, 1 + random.nextInt(4)));
        }
        return payload.bytes();
    }

    private static byte[] forgedBlock(Random random) {
        int literals = random.nextInt(5);
        byte[][] data = new byte[literals][];
        int[] copies = new int[literals];
        long total = 0;
        for (int i = 0; i < literals; i++) {
            data[i] = StoredPayloads.randomBytes(
                    random, 1 + (random.nextBoolean() ? random.nextInt(64) : random.nextInt(3000)));
            copies[i] = random.nextInt(15) == 0 ? 1 + random.nextInt(random.nextBoolean() ? 4 : 64) : 0;
            total += data[i].length + copies[i];
        }
        long declared = random.nextInt(8) == 0 ? Math.max(0, total + random.nextInt(5) - 2) : total;
        SnappyFrames block = new SnappyFrames();
        switch (random.nextInt(12)) {
            case 0 -> block.varint(declared, 5); // padded to the most a varint32 may take
            case 1 -> block.varint(declared, 6); // one byte too long
            case 2 -> block.varint(declared | 1L << (28 + random.nextInt(6)), 5); // bits above 32
            default -> block.varint(declared);
        }
        for (int i = 0; i < literals; i++) {
            int minimal =
                    data[i].length <= SnappyFrameLayout.LITERAL_LENGTH_IN_TAG_LIMIT ? 0 : data[i].length <= 256 ? 1 : 2;
            int lengthBytes = random.nextInt(6) == 0 ? minimal + random.nextInt(5 - minimal) : minimal;
            long length = random.nextInt(30) == 0 ? data[i].length + random.nextInt(5) - 2 : data[i].length;
            block.literalTag(Math.max(1, length), lengthBytes);
            block.raw(data[i]);
            if (copies[i] > 0) {
                int offset = 1 + random.nextInt(Math.min(2047, data[i].length));
                switch (copies[i] < 4 || copies[i] > 11 ? 1 + random.nextInt(2) : random.nextInt(3)) {
                    case 0 -> block.copy(copies[i], offset);
                    case 1 -> block.longCopy(copies[i], offset, 2);
                    default -> block.longCopy(copies[i], offset, 4);
                }
            }
        }
        byte[] bytes = block.bytes();
        return random.nextInt(30) == 0 ? Arrays.copyOf(bytes, random.nextInt(bytes.length + 1)) : bytes;
    }
}
