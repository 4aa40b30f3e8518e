package io.sluice.broker.move;

import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import io.sluice.log.epoch.EpochEntry;
import io.sluice.log.producer.ProducerSnapshotDescriptor;
import java.util.ArrayList;
import java.util.List;

/**
 * Source to target, the answer to {@link MoveOpenRequest}: what will be shipped, as parallel lists. The target also
 * keeps it as the manifest of its staging directory. Schema v0: errorCode, errorMessage, transferId, logStartOffset,
 * boundaryOffset, segmentBaseOffsets, segmentLastOffsets, segmentSizes, epochs, epochStartOffsets,
 * producerSnapshotOffset (-1: none), producerSnapshotSize. Mutable holder; not thread-safe.
 */
public final class MoveSegmentList extends MoveMessage {
    private static final long[] NO_LONGS = new long[0];
    private static final int[] NO_INTS = new int[0];

    public short errorCode;
    public String errorMessage;
    public long transferId;
    public long logStartOffset;
    public long boundaryOffset;
    public long[] segmentBaseOffsets = NO_LONGS;
    public long[] segmentLastOffsets = NO_LONGS;
    public int[] segmentSizes = NO_INTS;
    public int[] epochs = NO_INTS;
    public long[] epochStartOffsets = NO_LONGS;
    public long producerSnapshotOffset = -1;
    public long producerSnapshotSize;

    public MoveSegmentList() {
        super(
                MoveMessages.SEGMENT_LIST,
                "errorCode",
                "errorMessage",
                "transferId",
                "logStartOffset",
                "boundaryOffset",
                "segmentBaseOffsets",
                "segmentLastOffsets",
                "segmentSizes",
                "epochs",
                "epochStartOffsets",
                "producerSnapshotOffset",
                "producerSnapshotSize");
    }

    public int segmentCount() {
        return segmentBaseOffsets.length;
    }

    public List<EpochEntry> epochEntries() {
        List<EpochEntry> entries = new ArrayList<>(epochs.length);
        for (int i = 0; i < epochs.length; i++) {
            entries.add(new EpochEntry(epochs[i], epochStartOffsets[i]));
        }
        return entries;
    }

    public long totalBytes() {
        long total = producerSnapshotSize;
        for (int size : segmentSizes) {
            total += size;
        }
        return total;
    }

    /** Consistency checks of a successful answer; throws naming the field and the values seen. */
    void validate() {
        if (segmentBaseOffsets == null
                || segmentLastOffsets == null
                || segmentSizes == null
                || epochs == null
                || epochStartOffsets == null) {
            throw new MoveProtocolException("MoveSegmentList", "a list is null");
        }
        int n = segmentBaseOffsets.length;
        if (segmentLastOffsets.length != n || segmentSizes.length != n) {
            throw new MoveProtocolException(
                    "MoveSegmentList.segmentLastOffsets/segmentSizes",
                    "have " + segmentLastOffsets.length + " and " + segmentSizes.length + " entries for " + n
                            + " segments");
        }
        if (epochs.length != epochStartOffsets.length) {
            throw new MoveProtocolException(
                    "MoveSegmentList.epochStartOffsets",
                    "has " + epochStartOffsets.length + " entries for " + epochs.length + " epochs");
        }
        if (logStartOffset < 0 || boundaryOffset < logStartOffset) {
            throw new MoveProtocolException(
                    "MoveSegmentList.boundaryOffset", boundaryOffset + " with logStartOffset " + logStartOffset);
        }
        long nextAtLeast = 0;
        for (int i = 0; i < n; i++) {
            long base = segmentBaseOffsets[i];
            long last = segmentLastOffsets[i];
            if (base < nextAtLeast || last < base || last >= boundaryOffset || segmentSizes[i] <= 0) {
                throw new MoveProtocolException(
                        "MoveSegmentList.segments[" + i + "]",
                        "base " + base + ", last " + last
                                + ", size " + segmentSizes[i] + " (previous ends below " + nextAtLeast + ", boundary "
                                + boundaryOffset + ")");
            }
            nextAtLeast = last + 1;
        }
        for (int i = 0; i < epochs.length; i++) {
            if (epochs[i] < 0
                    || epochStartOffsets[i] < 0
                    || (i > 0 && (epochs[i] <= epochs[i - 1] || epochStartOffsets[i] < epochStartOffsets[i - 1]))) {
                throw new MoveProtocolException(
                        "MoveSegmentList.epochs[" + i + "]",
                        "epoch " + epochs[i] + " at " + epochStartOffsets[i] + " does not follow the previous entry");
            }
        }
        if (producerSnapshotOffset < -1
                || producerSnapshotOffset > boundaryOffset
                || producerSnapshotSize < 0
                || producerSnapshotSize > ProducerSnapshotDescriptor.MAX_FILE_BYTES
                || (producerSnapshotOffset == -1 && producerSnapshotSize != 0)) {
            throw new MoveProtocolException(
                    "MoveSegmentList.producerSnapshot",
                    "offset " + producerSnapshotOffset + ", size " + producerSnapshotSize);
        }
    }

    @Override
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeShort(errorCode);
            case 1 -> w.writeString(errorMessage);
            case 2 -> w.writeLong(transferId);
            case 3 -> w.writeLong(logStartOffset);
            case 4 -> w.writeLong(boundaryOffset);
            case 5 -> w.writeLongArray(segmentBaseOffsets);
            case 6 -> w.writeLongArray(segmentLastOffsets);
            case 7 -> w.writeIntArray(segmentSizes);
            case 8 -> w.writeIntArray(epochs);
            case 9 -> w.writeLongArray(epochStartOffsets);
            case 10 -> w.writeLong(producerSnapshotOffset);
            default -> w.writeLong(producerSnapshotSize);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> errorCode = r.readShort();
            case 1 -> errorMessage = r.readString();
            case 2 -> transferId = r.readLong();
            case 3 -> logStartOffset = r.readLong();
            case 4 -> boundaryOffset = r.readLong();
            case 5 -> segmentBaseOffsets = r.readLongArray();
            case 6 -> segmentLastOffsets = r.readLongArray();
            case 7 -> segmentSizes = r.readIntArray();
            case 8 -> epochs = r.readIntArray();
            case 9 -> epochStartOffsets = r.readLongArray();
            case 10 -> producerSnapshotOffset = r.readLong();
            default -> producerSnapshotSize = r.readLong();
        }
        return r.isLastRead();
    }

    @Override
    public String toString() {
        return "MoveSegmentList{" + transferId + ", error=" + errorCode + ", start=" + logStartOffset + ", boundary="
                + boundaryOffset + ", segments=" + segmentCount() + ", snapshot=" + producerSnapshotOffset + "}";
    }
}
