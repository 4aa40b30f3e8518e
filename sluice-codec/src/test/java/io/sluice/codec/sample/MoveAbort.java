package io.sluice.codec.sample;

import io.sluice.codec.message.FieldMessage;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.Objects;

/**
 * Either side or the controller: the move is abandoned; the target discards its staging directory.
 * Schema v0: moveId, leaderEpoch, reasonCode, reason.
 * Mutable value holder; not thread-safe.
 */
public final class MoveAbort extends FieldMessage {
    public static final int TYPE_ID = ClusterMessages.MOVE_ABORT;
    private static final String[] FIELDS = {"moveId", "leaderEpoch", "reasonCode", "reason"};
    public static final int REASON_STALE_LEADER_EPOCH = 1;
    public static final int REASON_CHECKSUM = 2;
    public static final int REASON_CANCELLED = 3;
    public static final int REASON_IO = 4;

    public long moveId;
    public int leaderEpoch;
    public int reasonCode;
    public String reason = "";

    public MoveAbort() {}

    public MoveAbort(long moveId, int leaderEpoch, int reasonCode, String reason) {
        this.moveId = moveId;
        this.leaderEpoch = leaderEpoch;
        this.reasonCode = reasonCode;
        this.reason = reason;
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
            case 2 -> w.writeInt(reasonCode);
            default -> w.writeString(reason);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> moveId = r.readLong();
            case 1 -> leaderEpoch = r.readInt();
            case 2 -> reasonCode = r.readInt();
            default -> reason = r.readString();
        }
        return r.isLastRead();
    }

    @Override
    public String fieldName(int index) {
        return index < FIELDS.length ? FIELDS[index] : "end";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MoveAbort m
                && moveId == m.moveId
                && leaderEpoch == m.leaderEpoch
                && reasonCode == m.reasonCode
                && Objects.equals(reason, m.reason);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(moveId);
    }

    @Override
    public String toString() {
        return "MoveAbort{" + moveId + ", leaderEpoch=" + leaderEpoch + ", code=" + reasonCode + ", " + reason + "}";
    }
}
