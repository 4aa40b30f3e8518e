package io.sluice.log.index;

/**
 * Layout of a {@code .timeindex} file: sparse, append-only big-endian entries, each saying "up to and including
 * the batch ending at this relative offset, the largest batch maxTimestamp is this timestamp".
 * <pre>
 *  0  timestamp       int64   strictly increasing
 *  8  relativeOffset  int32   lastOffset - baseOffset of the batch that first reached the timestamp, non-decreasing
 * </pre>
 * Constants only.
 */
public final class TimeIndexDescriptor {
    private TimeIndexDescriptor() {}

    public static final int TIMESTAMP_OFFSET = 0;
    public static final int TIMESTAMP_LENGTH = 8;
    public static final int RELATIVE_OFFSET_OFFSET = TIMESTAMP_OFFSET + TIMESTAMP_LENGTH;
    public static final int RELATIVE_OFFSET_LENGTH = 4;
    public static final int ENTRY_LENGTH = RELATIVE_OFFSET_OFFSET + RELATIVE_OFFSET_LENGTH;
}
