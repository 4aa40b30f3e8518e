package io.sluice.broker.group.store;

/**
 * Layout of the group log files a broker kept before group state moved to {@code __consumer_offsets}: one
 * {@code __consumer_offsets-<n>/groups.log} per partition of the group space under
 * {@code <first log dir>/.sluice-metadata/consumer-offsets}, a sequence of frames, each an atomic batch of records.
 * They are only read, once, by {@link GroupStoreMigration}.
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
 * record: type int8, then the key fields and (except for tombstones) the value fields of
 *         {@link GroupRecordDescriptor}, without key type and value version
 *  OFFSET_COMMIT    offset key fields, offset value fields
 *  OFFSET_TOMBSTONE offset key fields
 *  GROUP_METADATA   group key fields, group value fields
 *  GROUP_TOMBSTONE  group key fields
 * </pre>
 * Stateless constants; thread-safe.
 */
public final class GroupLogDescriptor {
    public static final String LOG_FILE_NAME = "groups.log";
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

    /** Frames larger than this are treated as corruption: a forged length never causes a huge read. */
    public static final int MAX_PAYLOAD_LENGTH = 64 * 1024 * 1024;

    private GroupLogDescriptor() {}
}
