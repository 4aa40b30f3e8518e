package io.sluice.codec.sample;

import io.sluice.codec.message.FieldMessage;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.Objects;

/**
 * Target to source broker: everything of segment {@code segmentBaseOffset} before {@code resumeFromPosition} is
 * verified and durable. Sent after each chunk and, after a broken transfer, as the request to resume from there.
 * Schema v0: moveId, leaderEpoch, segmentBaseOffset, resumeFromPosition.
 * Mutable value holder; not thread-safe.
 */
public final class MoveChunkAck extends FieldMessage {
    public static final int TYPE_ID = ClusterMessages.MOVE_CHUNK_ACK;
    private static final String[] FIELDS = {"moveId", "leaderEpoch", "segmentBaseOffset", "resumeFromPosition"};

    public long moveId;
    public int leaderEpoch;
    public long segmentBaseOffset;
    public long resumeFromPosition;

    public MoveChunkAck() {}

    public MoveChunkAck(long moveId, int leaderEpoch, long segmentBaseOffset, long resumeFromPosition) {
        this.moveId = moveId;
        this.leaderEpoch = leaderEpoch;
        this.segmentBaseOffset = segmentBaseOffset;
        this.resumeFromPosition = resumeFromPosition;
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
            case 1 -> w.writeInt(leaderEpoch);
            case 2 -> w.writeLong(segmentBaseOffset);
            default -> w.writeLong(resumeFromPosition);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> moveId = r.readLong();
            case 1 -> leaderEpoch = r.readInt();
            case 2 -> segmentBaseOffset = r.readLong();
            default -> resumeFromPosition = r.readLong();
        }
        return r.isLastRead();
    }

    @Override
    public String fieldName(int index) {
        return index < FIELDS.length ? FIELDS[index] : "end";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MoveChunkAck m
                && moveId == m.moveId
                && leaderEpoch == m.leaderEpoch
                && segmentBaseOffset == m.segmentBaseOffset
                && resumeFromPosition == m.resumeFromPosition;
    }

    @Override
    public int hashCode() {
        return Objects.hash(moveId, segmentBaseOffset, resumeFromPosition);
    }

    @Override
    public String toString() {
        return "MoveChunkAck{" + moveId + ", leaderEpoch=" + leaderEpoch + ", segment=" + segmentBaseOffset
                + ", resumeFrom=" + resumeFromPosition + "}";
    }
}
