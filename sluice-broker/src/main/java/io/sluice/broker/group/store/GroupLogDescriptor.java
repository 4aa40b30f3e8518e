package io.sluice.broker.group.store;

/**
 * Layout of the group log file: a sequence of frames, each an atomic batch of {@link GroupRecord}s.
 *
 * <pre>
 * frame:
 *  0             4             8
 *  +-------------+-------------+------------------------------+
 *  | payload len | CRC-32C     | payload (payload len bytes)  |
 *  | int32       | int32       |                              |
 *  +-------------+-------------+------------------------------+
 *  CRC-32C covers the payload only.
 *
 * payload:
 *  +---------+--------------+-----------------------------------------------+
 *  | version | record count | record * count                                |
 *  | int8    | int32        |                                               |
 *  +---------+--------------+-----------------------------------------------+
 *
 * record: type int8, then by type
 *  OFFSET_COMMIT    group str, topic str, partition int32, offset int64, leader epoch int32,
 *                   metadata nstr, commit timestamp int64, expire timestamp int64
 *  OFFSET_TOMBSTONE group str, topic str, partition int32
 *  GROUP_METADATA   group str, protocol type nstr, generation int32, protocol name nstr, leader nstr,
 *                   state timestamp int64, member count int32, member * count
 *     member        member id str, instance id nstr, client id str, client host str,
 *                   rebalance timeout int32, session timeout int32, subscription bytes, assignment bytes
 *  GROUP_TOMBSTONE  group str
 *
 * str   = int16 length, UTF-8 bytes;  nstr = the same with length -1 for null
 * bytes = int32 length, bytes
 * </pre>
 * Stateless constants; thread-safe.
 */
public final class GroupLogDescriptor {
    public static final String LOG_FILE_NAME = "groups.log";
    public static final String COMPACTION_FILE_NAME = "groups.log.compacting";
    public static final String PARTITION_DIR_PREFIX = "__consumer_offsets-";

    public static final int LENGTH_OFFSET = 0;
    public static final int LENGTH_LENGTH = Integer.BYTES;
    public static final int CRC_OFFSET = LENGTH_OFFSET + LENGTH_LENGTH;
    public static final int CRC_LENGTH = Integer.BYTES;
    public static final int FRAME_HEADER_LENGTH = CRC_OFFSET + CRC_LENGTH;

    public static final int VERSION_OFFSET = 0;
    public static final int VERSION_LENGTH = Byte.BYTES;
    public static final int RECORD_COUNT_OFFSET = VERSION_OFFSET + VERSION_LENGTH;
    public static final int RECORD_COUNT_LENGTH = Integer.BYTES;
    public static final int RECORDS_OFFSET = RECORD_COUNT_OFFSET + RECORD_COUNT_LENGTH;

    public static final byte CURRENT_VERSION = 1;

    public static final byte TYPE_OFFSET_COMMIT = 1;
    public static final byte TYPE_OFFSET_TOMBSTONE = 2;
    public static final byte TYPE_GROUP_METADATA = 3;
    public static final byte TYPE_GROUP_TOMBSTONE = 4;

    /** Frames larger than this are treated as corruption on load: a forged length never causes a huge read. */
    public static final int MAX_PAYLOAD_LENGTH = 64 * 1024 * 1024;

    private GroupLogDescriptor() {
    }
}
