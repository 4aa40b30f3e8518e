package io.sluice.log.batch;

/**
 * The fields of a Kafka v2 record batch header that storage reads or stamps. Mirrors
 * {@code io.sluice.record.batch.RecordBatchDescriptor}; kept here so the log only needs these few fields.
 *
 * <pre>
 *  0  baseOffset           int64   \  LOG_OVERHEAD (12): offset + length prefix
 *  8  batchLength          int32   /  (bytes after this field)
 * 12  partitionLeaderEpoch int32
 * 16  magic                int8    (2)
 * 17  crc                  uint32  CRC-32C of attributes..end
 * 21  attributes           int16   bit 4 = transactional, bit 5 = control
 * 23  lastOffsetDelta      int32
 * 27  baseTimestamp        int64
 * 35  maxTimestamp         int64
 * 43  producerId           int64
 * 51  producerEpoch        int16
 * 53  baseSequence         int32
 * 57  recordCount          int32
 * 61  records...
 * </pre>
 * Constants only.
 */
public final class StoredBatchDescriptor {
    private StoredBatchDescriptor() {
    }

    public static final int BASE_OFFSET_OFFSET = 0;
    public static final int BASE_OFFSET_LENGTH = 8;
    public static final int LENGTH_OFFSET = BASE_OFFSET_OFFSET + BASE_OFFSET_LENGTH;
    public static final int LENGTH_LENGTH = 4;
    public static final int LOG_OVERHEAD = LENGTH_OFFSET + LENGTH_LENGTH;
    public static final int PARTITION_LEADER_EPOCH_OFFSET = LOG_OVERHEAD;
    public static final int PARTITION_LEADER_EPOCH_LENGTH = 4;
    public static final int MAGIC_OFFSET = PARTITION_LEADER_EPOCH_OFFSET + PARTITION_LEADER_EPOCH_LENGTH;
    public static final int MAGIC_LENGTH = 1;
    public static final int CRC_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
    public static final int CRC_LENGTH = 4;
    public static final int ATTRIBUTES_OFFSET = CRC_OFFSET + CRC_LENGTH;
    public static final int ATTRIBUTES_LENGTH = 2;
    public static final int LAST_OFFSET_DELTA_OFFSET = ATTRIBUTES_OFFSET + ATTRIBUTES_LENGTH;
    public static final int LAST_OFFSET_DELTA_LENGTH = 4;
    public static final int BASE_TIMESTAMP_OFFSET = LAST_OFFSET_DELTA_OFFSET + LAST_OFFSET_DELTA_LENGTH;
    public static final int BASE_TIMESTAMP_LENGTH = 8;
    public static final int MAX_TIMESTAMP_OFFSET = BASE_TIMESTAMP_OFFSET + BASE_TIMESTAMP_LENGTH;
    public static final int MAX_TIMESTAMP_LENGTH = 8;
    public static final int PRODUCER_ID_OFFSET = MAX_TIMESTAMP_OFFSET + MAX_TIMESTAMP_LENGTH;
    public static final int PRODUCER_ID_LENGTH = 8;
    public static final int PRODUCER_EPOCH_OFFSET = PRODUCER_ID_OFFSET + PRODUCER_ID_LENGTH;
    public static final int PRODUCER_EPOCH_LENGTH = 2;
    public static final int BASE_SEQUENCE_OFFSET = PRODUCER_EPOCH_OFFSET + PRODUCER_EPOCH_LENGTH;
    public static final int BASE_SEQUENCE_LENGTH = 4;
    public static final int RECORD_COUNT_OFFSET = BASE_SEQUENCE_OFFSET + BASE_SEQUENCE_LENGTH;
    public static final int RECORD_COUNT_LENGTH = 4;
    public static final int RECORDS_OFFSET = RECORD_COUNT_OFFSET + RECORD_COUNT_LENGTH;
    /** Size of a batch with no records. */
    public static final int RECORD_BATCH_OVERHEAD = RECORDS_OFFSET;

    public static final byte MAGIC_V2 = 2;
    public static final int TRANSACTIONAL_FLAG_MASK = 0x10;
    public static final int CONTROL_FLAG_MASK = 0x20;
    public static final long NO_PRODUCER_ID = -1L;
    public static final short NO_PRODUCER_EPOCH = -1;
    public static final int NO_SEQUENCE = -1;
    public static final long NO_TIMESTAMP = -1L;
}
