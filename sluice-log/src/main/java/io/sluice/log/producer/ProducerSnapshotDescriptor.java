package io.sluice.log.producer;

/**
 * Layout of a producer state snapshot file {@code <20-digit offset>.snapshot} (big-endian), the state as of the
 * log end offset in its name:
 * <pre>
 * header
 *  0  version        int16   0
 *  2  crc            int32   CRC-32C of everything after this field
 *  6  producerCount  int32
 * 10  producers...
 * producer
 *  0  producerId     int64
 *  8  epoch          int16
 * 10  lastTimestamp  int64
 * 18  batchCount     int8    0..5
 * 19  batches...
 * batch
 *  0  lastSeq        int32
 *  4  lastOffset     int64
 * 12  offsetDelta    int32
 * 16  timestamp      int64
 * </pre>
 * Constants only.
 */
public final class ProducerSnapshotDescriptor {
    private ProducerSnapshotDescriptor() {}

    public static final short VERSION = 0;

    public static final int VERSION_OFFSET = 0;
    public static final int VERSION_LENGTH = 2;
    public static final int CRC_OFFSET = VERSION_OFFSET + VERSION_LENGTH;
    public static final int CRC_LENGTH = 4;
    public static final int PRODUCER_COUNT_OFFSET = CRC_OFFSET + CRC_LENGTH;
    public static final int PRODUCER_COUNT_LENGTH = 4;
    public static final int HEADER_LENGTH = PRODUCER_COUNT_OFFSET + PRODUCER_COUNT_LENGTH;

    public static final int PRODUCER_ID_OFFSET = 0;
    public static final int PRODUCER_ID_LENGTH = 8;
    public static final int EPOCH_OFFSET = PRODUCER_ID_OFFSET + PRODUCER_ID_LENGTH;
    public static final int EPOCH_LENGTH = 2;
    public static final int LAST_TIMESTAMP_OFFSET = EPOCH_OFFSET + EPOCH_LENGTH;
    public static final int LAST_TIMESTAMP_LENGTH = 8;
    public static final int BATCH_COUNT_OFFSET = LAST_TIMESTAMP_OFFSET + LAST_TIMESTAMP_LENGTH;
    public static final int BATCH_COUNT_LENGTH = 1;
    public static final int PRODUCER_LENGTH = BATCH_COUNT_OFFSET + BATCH_COUNT_LENGTH;

    public static final int LAST_SEQ_OFFSET = 0;
    public static final int LAST_SEQ_LENGTH = 4;
    public static final int LAST_OFFSET_OFFSET = LAST_SEQ_OFFSET + LAST_SEQ_LENGTH;
    public static final int LAST_OFFSET_LENGTH = 8;
    public static final int OFFSET_DELTA_OFFSET = LAST_OFFSET_OFFSET + LAST_OFFSET_LENGTH;
    public static final int OFFSET_DELTA_LENGTH = 4;
    public static final int TIMESTAMP_OFFSET = OFFSET_DELTA_OFFSET + OFFSET_DELTA_LENGTH;
    public static final int TIMESTAMP_LENGTH = 8;
    public static final int BATCH_LENGTH = TIMESTAMP_OFFSET + TIMESTAMP_LENGTH;

    /** Largest snapshot read back; bounds the allocation a forged file can cause (~1.6 M producers). */
    public static final int MAX_FILE_BYTES = 256 * 1024 * 1024;
}
