package io.sluice.record.batch;

/**
 * Layout of a Kafka record batch, magic 2 (the only format Sluice accepts from clients).
 *
 * <p>Stateless constants; thread-safe.
 *
 * <pre>
 *  offset  length  field                    covered by CRC   written by
 *  ------  ------  -----------------------  ---------------  ------------------------------
 *       0       8  baseOffset (int64)       no               the log, under its append lock
 *       8       4  batchLength (int32)      no               producer (bytes after this field)
 *      12       4  partitionLeaderEpoch     no               the log, under its append lock
 *      16       1  magic (int8) = 2         no               producer
 *      17       4  crc (uint32, CRC-32C)    no               producer; validator after a stamp
 *      21       2  attributes (int16)       yes              producer; validator (timestamp type)
 *      23       4  lastOffsetDelta (int32)  yes              producer
 *      27       8  baseTimestamp (int64)    yes              producer
 *      35       8  maxTimestamp (int64)     yes              producer; validator (LogAppendTime)
 *      43       8  producerId (int64)       yes              producer
 *      51       2  producerEpoch (int16)    yes              producer
 *      53       4  baseSequence (int32)     yes              producer
 *      57       4  recordsCount (int32)     yes              producer
 *      61       …  records (maybe compressed) yes            producer
 * </pre>
 *
 * <p>The CRC-32C covers every byte from {@link #ATTRIBUTES_OFFSET} to the end of the batch
 * ({@link #LOG_OVERHEAD} + batchLength). Base offset and partition leader epoch lie before it, so
 * the log assigns them in place without recomputing the CRC. Changing attributes or the max
 * timestamp (LogAppendTime stamping) requires recomputing it.
 *
 * <p>Attributes (int16): bits 0-2 compression codec ({@link #COMPRESSION_CODEC_MASK}: 0 none,
 * 1 gzip, 2 snappy, 3 lz4, 4 zstd), bit 3 timestamp type (0 CreateTime, 1 LogAppendTime),
 * bit 4 transactional, bit 5 control batch, bit 6 delete horizon set (compaction only).
 *
 * <p>Each record inside {@code records} (after decompression for compressed batches) is:
 * <pre>
 *  length            varint (zigzag)  bytes of the record after this field
 *  attributes        int8             unused in v2, written as 0
 *  timestampDelta    varlong (zigzag) record timestamp - baseTimestamp
 *  offsetDelta       varint  (zigzag) record offset - baseOffset, 0,1,2,… in order
 *  keyLength         varint  (zigzag) -1 for a null key
 *  key               keyLength bytes
 *  valueLength       varint  (zigzag) -1 for a null value
 *  value             valueLength bytes
 *  headerCount       varint  (zigzag) &gt;= 0
 *  headers           headerCount times:
 *    headerKeyLength   varint (zigzag) &gt;= 0
 *    headerKey         headerKeyLength bytes (UTF-8)
 *    headerValueLength varint (zigzag) -1 for a null value
 *    headerValue       headerValueLength bytes
 * </pre>
 */
public final class RecordBatchDescriptor {

    public static final byte MAGIC_V2 = 2;

    public static final int BASE_OFFSET_OFFSET = 0;
    public static final int BASE_OFFSET_LENGTH = Long.BYTES;
    public static final int BATCH_LENGTH_OFFSET = BASE_OFFSET_OFFSET + BASE_OFFSET_LENGTH;
    public static final int BATCH_LENGTH_LENGTH = Integer.BYTES;
    /** Bytes before the batchLength count starts: base offset and the length field itself. */
    public static final int LOG_OVERHEAD = BATCH_LENGTH_OFFSET + BATCH_LENGTH_LENGTH;

    public static final int PARTITION_LEADER_EPOCH_OFFSET = LOG_OVERHEAD;
    public static final int PARTITION_LEADER_EPOCH_LENGTH = Integer.BYTES;
    /** Common to every Kafka message format: magic sits here for v0, v1 and v2. */
    public static final int MAGIC_OFFSET = PARTITION_LEADER_EPOCH_OFFSET + PARTITION_LEADER_EPOCH_LENGTH;

    public static final int MAGIC_LENGTH = Byte.BYTES;
    public static final int CRC_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
    public static final int CRC_LENGTH = Integer.BYTES;
    public static final int ATTRIBUTES_OFFSET = CRC_OFFSET + CRC_LENGTH;
    public static final int ATTRIBUTES_LENGTH = Short.BYTES;
    public static final int LAST_OFFSET_DELTA_OFFSET = ATTRIBUTES_OFFSET + ATTRIBUTES_LENGTH;
    public static final int LAST_OFFSET_DELTA_LENGTH = Integer.BYTES;
    public static final int BASE_TIMESTAMP_OFFSET = LAST_OFFSET_DELTA_OFFSET + LAST_OFFSET_DELTA_LENGTH;
    public static final int BASE_TIMESTAMP_LENGTH = Long.BYTES;
    public static final int MAX_TIMESTAMP_OFFSET = BASE_TIMESTAMP_OFFSET + BASE_TIMESTAMP_LENGTH;
    public static final int MAX_TIMESTAMP_LENGTH = Long.BYTES;
    public static final int PRODUCER_ID_OFFSET = MAX_TIMESTAMP_OFFSET + MAX_TIMESTAMP_LENGTH;
    public static final int PRODUCER_ID_LENGTH = Long.BYTES;
    public static final int PRODUCER_EPOCH_OFFSET = PRODUCER_ID_OFFSET + PRODUCER_ID_LENGTH;
    public static final int PRODUCER_EPOCH_LENGTH = Short.BYTES;
    public static final int BASE_SEQUENCE_OFFSET = PRODUCER_EPOCH_OFFSET + PRODUCER_EPOCH_LENGTH;
    public static final int BASE_SEQUENCE_LENGTH = Integer.BYTES;
    public static final int RECORDS_COUNT_OFFSET = BASE_SEQUENCE_OFFSET + BASE_SEQUENCE_LENGTH;
    public static final int RECORDS_COUNT_LENGTH = Integer.BYTES;
    public static final int RECORDS_OFFSET = RECORDS_COUNT_OFFSET + RECORDS_COUNT_LENGTH;

    /** Size of a v2 batch with no records: 61 bytes. */
    public static final int RECORD_BATCH_OVERHEAD = RECORDS_OFFSET;
    /** First byte covered by the CRC-32C; coverage runs to the end of the batch. */
    public static final int CRC_COVERED_OFFSET = ATTRIBUTES_OFFSET;

    public static final int COMPRESSION_CODEC_MASK = 0x07;
    public static final int TIMESTAMP_TYPE_MASK = 0x08;
    public static final int TRANSACTIONAL_FLAG_MASK = 0x10;
    public static final int CONTROL_FLAG_MASK = 0x20;
    public static final int DELETE_HORIZON_FLAG_MASK = 0x40;

    public static final int COMPRESSION_NONE = 0;
    public static final int COMPRESSION_GZIP = 1;
    public static final int COMPRESSION_SNAPPY = 2;
    public static final int COMPRESSION_LZ4 = 3;
    public static final int COMPRESSION_ZSTD = 4;

    /** Producer id, epoch and sequence values meaning "not idempotent". */
    public static final long NO_PRODUCER_ID = -1L;

    public static final short NO_PRODUCER_EPOCH = -1;
    public static final int NO_SEQUENCE = -1;
    /** Timestamp value meaning "no timestamp" (never range-checked). */
    public static final long NO_TIMESTAMP = -1L;

    /**
     * Fewest bytes a record's body (what its length counts) can take: attributes + timestampDelta +
     * offsetDelta + keyLength + valueLength + headerCount, one byte each.
     */
    public static final int MIN_RECORD_BODY = 6;
    /** Largest encoding of a zigzag varint (int32) and varlong (int64). */
    public static final int MAX_VARINT_LENGTH = 5;

    public static final int MAX_VARLONG_LENGTH = 10;

    private RecordBatchDescriptor() {}
}
