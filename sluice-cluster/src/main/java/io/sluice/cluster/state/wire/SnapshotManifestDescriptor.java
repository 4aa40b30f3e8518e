package io.sluice.cluster.state.wire;

import io.sluice.codec.compress.Compression;
import io.sluice.codec.error.ChecksumMismatchException;
import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.error.TruncatedInputException;
import io.sluice.codec.error.UnsupportedVersionException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Layout of a snapshot manifest znode (big-endian):
 *
 * <pre>
 *  0      2        3            4             12                16             24           28             32          36             40
 *  +------+--------+------------+-------------+-----------------+--------------+------------+--------------+-----------+--------------+
 *  |magic |version |compression | snapshotId  | controllerEpoch | lastDeltaSeq | partCount  | totalLength  | streamCrc | manifestCrc  |
 *  |  2   |   1    |     1      |     8       |       4         |      8       |     4      |      4       |     4     |      4       |
 *  +------+--------+------------+-------------+-----------------+--------------+------------+--------------+-----------+--------------+
 * </pre>
 *
 * manifestCrc is the CRC-32C of every byte before it. Stateless.
 */
public final class SnapshotManifestDescriptor {
    public static final short MAGIC = (short) 0x534D; // "SM"
    public static final byte VERSION = 0;
    public static final int MAGIC_OFFSET = 0;
    public static final int MAGIC_LENGTH = 2;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
    public static final int VERSION_LENGTH = 1;
    public static final int COMPRESSION_OFFSET = VERSION_OFFSET + VERSION_LENGTH;
    public static final int COMPRESSION_LENGTH = 1;
    public static final int SNAPSHOT_ID_OFFSET = COMPRESSION_OFFSET + COMPRESSION_LENGTH;
    public static final int SNAPSHOT_ID_LENGTH = 8;
    public static final int EPOCH_OFFSET = SNAPSHOT_ID_OFFSET + SNAPSHOT_ID_LENGTH;
    public static final int EPOCH_LENGTH = 4;
    public static final int LAST_DELTA_SEQ_OFFSET = EPOCH_OFFSET + EPOCH_LENGTH;
    public static final int LAST_DELTA_SEQ_LENGTH = 8;
    public static final int PART_COUNT_OFFSET = LAST_DELTA_SEQ_OFFSET + LAST_DELTA_SEQ_LENGTH;
    public static final int PART_COUNT_LENGTH = 4;
    public static final int TOTAL_LENGTH_OFFSET = PART_COUNT_OFFSET + PART_COUNT_LENGTH;
    public static final int TOTAL_LENGTH_LENGTH = 4;
    public static final int STREAM_CRC_OFFSET = TOTAL_LENGTH_OFFSET + TOTAL_LENGTH_LENGTH;
    public static final int STREAM_CRC_LENGTH = 4;
    public static final int MANIFEST_CRC_OFFSET = STREAM_CRC_OFFSET + STREAM_CRC_LENGTH;
    public static final int MANIFEST_CRC_LENGTH = 4;
    public static final int LENGTH = MANIFEST_CRC_OFFSET + MANIFEST_CRC_LENGTH;

    private SnapshotManifestDescriptor() {}

    public static byte[] encode(SnapshotManifest m) {
        ByteBuffer b = ByteBuffer.allocate(LENGTH);
        b.putShort(MAGIC_OFFSET, MAGIC);
        b.put(VERSION_OFFSET, VERSION);
        b.put(COMPRESSION_OFFSET, (byte) m.compression().id());
        b.putLong(SNAPSHOT_ID_OFFSET, m.snapshotId());
        b.putInt(EPOCH_OFFSET, m.controllerEpoch());
        b.putLong(LAST_DELTA_SEQ_OFFSET, m.lastDeltaSeq());
        b.putInt(PART_COUNT_OFFSET, m.partCount());
        b.putInt(TOTAL_LENGTH_OFFSET, m.totalLength());
        b.putInt(STREAM_CRC_OFFSET, m.streamCrc());
        b.putInt(MANIFEST_CRC_OFFSET, crc(b.array()));
        return b.array();
    }

    /** Decodes and verifies a manifest; bad bytes raise a typed {@link MalformedInputException}. */
    public static SnapshotManifest decode(byte[] bytes) {
        if (bytes == null || bytes.length < LENGTH) {
            throw new TruncatedInputException(
                    "snapshot manifest: " + (bytes == null ? 0 : bytes.length) + " bytes, expected " + LENGTH);
        }
        if (bytes.length > LENGTH) {
            throw new MalformedInputException("snapshot manifest: " + bytes.length + " bytes, expected " + LENGTH);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        short magic = b.getShort(MAGIC_OFFSET);
        if (magic != MAGIC) {
            throw new MalformedInputException("snapshot manifest: magic 0x" + Integer.toHexString(magic & 0xFFFF)
                    + ", expected 0x" + Integer.toHexString(MAGIC));
        }
        byte version = b.get(VERSION_OFFSET);
        if (version != VERSION) {
            throw new UnsupportedVersionException("snapshot manifest", version, VERSION);
        }
        int stored = b.getInt(MANIFEST_CRC_OFFSET);
        int computed = crc(bytes);
        if (stored != computed) {
            throw new ChecksumMismatchException("snapshot manifest", stored, computed);
        }
        byte compressionId = b.get(COMPRESSION_OFFSET);
        Compression compression = Compression.byId(compressionId);
        if (compression == null) {
            throw new MalformedInputException("snapshot manifest: unknown compression id " + compressionId);
        }
        return new SnapshotManifest(
                b.getLong(SNAPSHOT_ID_OFFSET),
                b.getInt(EPOCH_OFFSET),
                b.getLong(LAST_DELTA_SEQ_OFFSET),
                b.getInt(PART_COUNT_OFFSET),
                b.getInt(TOTAL_LENGTH_OFFSET),
                b.getInt(STREAM_CRC_OFFSET),
                compression);
    }

    private static int crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, MANIFEST_CRC_OFFSET);
        return (int) crc.getValue();
    }
}
