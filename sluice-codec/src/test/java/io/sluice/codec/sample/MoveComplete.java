package io.sluice.codec.sample;

import io.sluice.codec.message.FieldMessage;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.Objects;
import java.util.UUID;

/**
 * Target broker to controller: the partition is installed and caught up to {@code logEndOffset}.
 * Schema v0: moveId, topicId, partition, leaderEpoch, logEndOffset.
 * Mutable value holder; not thread-safe.
 */
public final class MoveComplete extends FieldMessage {
    public static final int TYPE_ID = ClusterMessages.MOVE_COMPLETE;
    private static final String[] FIELDS = {"moveId", "topicId", "partition", "leaderEpoch", "logEndOffset"};

    public long moveId;
    public UUID topicId = new UUID(0, 0);
    public int partition;
    public int leaderEpoch;
    public long logEndOffset;

    public MoveComplete() {}

    public MoveComplete(long moveId, UUID topicId, int partition, int leaderEpoch, long logEndOffset) {
        this.moveId = moveId;
        this.topicId = topicId;
        this.partition = partition;
        this.leaderEpoch = leaderEpoch;
        this.logEndOffset = logEndOffset;
    }

    @Override
    public int typeId() {
        return TYPE_ID;
    }

    @Override
    protected int fieldCount(int version) {
        return FIELDS.length;
    }

    @Override
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeLong(moveId);
            case 1 -> w.writeUuid(topicId);
            case 2 -> w.writeInt(partition);
            case 3 -> w.writeInt(leaderEpoch);
            default -> w.writeLong(logEndOffset);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> moveId = r.readLong();
            case 1 -> topicId = r.readUuid();
            case 2 -> partition = r.readInt();
            case 3 -> leaderEpoch = r.readInt();
            default -> logEndOffset = r.readLong();
        }
        return r.isLastRead();
    }

    @Override
    public String fieldName(int index) {
        return index < FIELDS.length ? FIELDS[index] : "end";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MoveComplete m
                && moveId == m.moveId
                && Objects.equals(topicId, m.topicId)
                && partition == m.partition
                && leaderEpoch == m.leaderEpoch
                && logEndOffset == m.logEndOffset;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(moveId);
    }

    @Override
    public String toString() {
        return "MoveComplete{" + moveId + ", " + topicId + "-" + partition + ", leaderEpoch=" + leaderEpoch
                + ", logEnd=" + logEndOffset + "}";
    }
}
