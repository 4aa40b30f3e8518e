package io.sluice.log.index;

/**
 * Layout of a {@code .index} file: a sparse, append-only array of fixed-size big-endian entries, each mapping the
 * last offset of a batch (relative to the segment's base offset) to the file position where that batch starts.
 * <pre>
 *  0  relativeOffset  int32   lastOffset - baseOffset, strictly increasing
 *  4  position        int32   byte position of the batch in the .log file, strictly increasing
 * </pre>
 * Constants only.
 */
public final class OffsetIndexDescriptor {
    private OffsetIndexDescriptor() {}

    public static final int RELATIVE_OFFSET_OFFSET = 0;
    public static final int RELATIVE_OFFSET_LENGTH = 4;
    public static final int POSITION_OFFSET = RELATIVE_OFFSET_OFFSET + RELATIVE_OFFSET_LENGTH;
    public static final int POSITION_LENGTH = 4;
    public static final int ENTRY_LENGTH = POSITION_OFFSET + POSITION_LENGTH;
}
