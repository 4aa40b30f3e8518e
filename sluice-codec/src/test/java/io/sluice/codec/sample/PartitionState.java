package io.sluice.codec.sample;

import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;

/**
 * One partition as a broker sees it: leader epoch, log start/end offsets, high watermark, in-sync replicas.
 * Schema v0: topicId, partition, leaderEpoch, logStartOffset, logEndOffset, highWatermark, isr.
 * Schema v1 adds lastStableOffset (read as highWatermark from v0).
 * Mutable value holder; not thread-safe.
 */
public final class PartitionState implements Message {
    public static final int TYPE_ID = ClusterMessages.PARTITION_STATE;
    public static final int CURRENT_VERSION = 1;
    private static final String[] FIELDS = {
        "topicId",
        "partition",
        "leaderEpoch",
        "logStartOffset",
        "logEndOffset",
        "highWatermark",
        "isr",
        "lastStableOffset"
    };

    public UUID topicId = new UUID(0, 0);
    public int partition;
    public int leaderEpoch;
    public long logStartOffset;
    public long logEndOffset;
    public long highWatermark;
    public int[] isr = new int[0];
    public long lastStableOffset;
    /** Version written; lower only to talk to an older broker (and in compatibility tests). */
    public int writeVersion = CURRENT_VERSION;

    public PartitionState() {}

    public PartitionState(
            UUID topicId,
            int partition,
            int leaderEpoch,
            long logStartOffset,
            long logEndOffset,
            long highWatermark,
            int[] isr,
            long lastStableOffset) {
        this.topicId = topicId;
        this.partition = partition;
        this.leaderEpoch = leaderEpoch;
        this.logStartOffset = logStartOffset;
        this.logEndOffset = logEndOffset;
        this.highWatermark = highWatermark;
        this.isr = isr;
        this.lastStableOffset = lastStableOffset;
    }

    @Override
    public int typeId() {
        return TYPE_ID;
    }

    @Override
    public int version() {
        return writeVersion;
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean writeTo(MessageWriter w) {
        switch (w.state()) {
            case 0:
                if (!w.writeUuid(topicId)) {
                    return w.stopAt(0);
                }
            case 1:
                if (!w.writeInt(partition)) {
                    return w.stopAt(1);
                }
            case 2:
                if (!w.writeInt(leaderEpoch)) {
                    return w.stopAt(2);
                }
            case 3:
                if (!w.writeLong(logStartOffset)) {
                    return w.stopAt(3);
                }
            case 4:
                if (!w.writeLong(logEndOffset)) {
                    return w.stopAt(4);
                }
            case 5:
                if (!w.writeLong(highWatermark)) {
                    return w.stopAt(5);
                }
            case 6:
                if (!w.writeIntArray(isr)) {
                    return w.stopAt(6);
                }
                if (writeVersion < 1) {
                    return true;
                }
            case 7:
                if (!w.writeLong(lastStableOffset)) {
                    return w.stopAt(7);
                }
            default:
                return true;
        }
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean readFrom(MessageReader r) {
        switch (r.state()) {
            case 0:
                topicId = r.readUuid();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 1:
                partition = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 2:
                leaderEpoch = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 3:
                logStartOffset = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 4:
                logEndOffset = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 5:
                highWatermark = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 6:
                isr = r.readIntArray();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
                writeVersion = r.version();
                if (r.version() < 1) {
                    lastStableOffset = highWatermark;
                    return true;
                }
            case 7:
                lastStableOffset = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            default:
                return true;
        }
    }

    @Override
    public String fieldName(int index) {
        return index < FIELDS.length ? FIELDS[index] : "end";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionState p
                && Objects.equals(topicId, p.topicId)
                && partition == p.partition
                && leaderEpoch == p.leaderEpoch
                && logStartOffset == p.logStartOffset
                && logEndOffset == p.logEndOffset
                && highWatermark == p.highWatermark
                && Arrays.equals(isr, p.isr)
                && lastStableOffset == p.lastStableOffset;
    }

    @Override
    public int hashCode() {
        return Objects.hash(topicId, partition, leaderEpoch, logEndOffset);
    }

    @Override
    public String toString() {
        return "PartitionState{" + topicId + "-" + partition + ", leaderEpoch=" + leaderEpoch + ", logStart="
                + logStartOffset + ", logEnd=" + logEndOffset + ", hw=" + highWatermark + ", isr="
                + Arrays.toString(isr) + ", lso=" + lastStableOffset + "}";
    }
}
