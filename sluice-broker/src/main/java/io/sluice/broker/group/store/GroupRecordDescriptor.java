package io.sluice.broker.group.store;

/**
 * Layout of a {@link GroupRecord} as one Kafka record on {@code __consumer_offsets}: the key is the compaction key
 * (a later record with the same key bytes replaces an earlier one), the value the content, and a record without a
 * value is a tombstone. Records travel in ordinary Kafka v2 record batches, one batch per atomic append.
 *
 * <pre>
 * key:
 *  +----------+------------------------------------------------+
 *  | key type | key fields                                     |
 *  | int8     |                                                |
 *  +----------+------------------------------------------------+
 *  OFFSET_KEY  group str, topic str, partition int32
 *  GROUP_KEY   group str
 *
 * value (absent for a tombstone):
 *  +---------+-------------------------------------------------+
 *  | version | value fields, by key type                       |
 *  | int8    |                                                 |
 *  +---------+-------------------------------------------------+
 *  OFFSET_KEY  offset int64, leader epoch int32, metadata nstr, commit timestamp int64, expire timestamp int64
 *  GROUP_KEY   protocol type nstr, generation int32, protocol name nstr, leader nstr, state timestamp int64,
 *              member count int32, member * count
 *     member   member id str, instance id nstr, client id str, client host str,
 *              rebalance timeout int32, session timeout int32, subscription bytes, assignment bytes
 *
 * str   = int16 length, UTF-8 bytes;  nstr = the same with length -1 for null
 * bytes = int32 length, bytes
 * </pre>
 * The fields are those of the group log files written before the store was replicated
 * ({@link GroupLogDescriptor}), in the same order, so one codec reads both. Stateless constants; thread-safe.
 */
public final class GroupRecordDescriptor {
    public static final int KEY_TYPE_OFFSET = 0;
    public static final int KEY_TYPE_LENGTH = Byte.BYTES;
    public static final int KEY_FIELDS_OFFSET = KEY_TYPE_OFFSET + KEY_TYPE_LENGTH;

    public static final int VALUE_VERSION_OFFSET = 0;
    public static final int VALUE_VERSION_LENGTH = Byte.BYTES;
    public static final int VALUE_FIELDS_OFFSET = VALUE_VERSION_OFFSET + VALUE_VERSION_LENGTH;

    public static final byte OFFSET_KEY = 1;
    public static final byte GROUP_KEY = 2;

    public static final byte CURRENT_VALUE_VERSION = 1;

    private GroupRecordDescriptor() {}
}
