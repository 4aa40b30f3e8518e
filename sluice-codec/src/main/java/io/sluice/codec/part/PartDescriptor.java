package io.sluice.codec.part;

/**
 * Layout of one part of a split compressed stream (all integers big-endian). Stateless.
 *
 * <pre>
 *  0                   2         3             4
 *  +-------------------+---------+-------------+
 *  | magic "SP"        | version | compression |
 *  +-------------------+---------+-------------+
 *  4                                           8
 *  | part index (int32)                        |
 *  8                                           12
 *  | part count (int32)                        |
 *  12                                          16
 *  | total payload length of all parts (int32) |
 *  16                                          20
 *  | CRC-32C of the whole compressed stream    |
 *  20                                          24
 *  | CRC-32C of this part's payload            |
 *  24 ... payload (part length - 24 bytes)
 * </pre>
 */
public final class PartDescriptor {
    public static final short MAGIC = 0x5350;
    public static final byte VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int MAGIC_LENGTH = 2;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
    public static final int VERSION_LENGTH = 1;
    public static final int COMPRESSION_OFFSET = VERSION_OFFSET + VERSION_LENGTH;
    public static final int COMPRESSION_LENGTH = 1;
    public static final int INDEX_OFFSET = COMPRESSION_OFFSET + COMPRESSION_LENGTH;
    public static final int INDEX_LENGTH = 4;
    public static final int COUNT_OFFSET = INDEX_OFFSET + INDEX_LENGTH;
    public static final int COUNT_LENGTH = 4;
    public static final int TOTAL_LENGTH_OFFSET = COUNT_OFFSET + COUNT_LENGTH;
    public static final int TOTAL_LENGTH_LENGTH = 4;
    public static final int STREAM_CRC_OFFSET = TOTAL_LENGTH_OFFSET + TOTAL_LENGTH_LENGTH;
    public static final int STREAM_CRC_LENGTH = 4;
    public static final int PART_CRC_OFFSET = STREAM_CRC_OFFSET + STREAM_CRC_LENGTH;
    public static final int PART_CRC_LENGTH = 4;
    public static final int PAYLOAD_OFFSET = PART_CRC_OFFSET + PART_CRC_LENGTH;
    public static final int HEADER_LENGTH = PAYLOAD_OFFSET;

    private PartDescriptor() {}
}
