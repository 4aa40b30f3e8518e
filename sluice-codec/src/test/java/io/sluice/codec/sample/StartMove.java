package io.sluice.codec.sample;

import io.sluice.codec.message.FieldMessage;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.Objects;
import java.util.UUID;

/**
 * Controller to target broker: start copying a partition from the source broker.
 * Schema v0: moveId, controllerEpoch, topicId, partition, sourceBrokerId, targetBrokerId, leaderEpoch.
 * Mutable value holder; not thread-safe.
 */
public final class StartMove extends FieldMessage {
    public static final int TYPE_ID = ClusterMessages.START_MOVE;
    private static final String[] FIELDS = {
        "moveId", "controllerEpoch", "topicId", "partition", "sourceBrokerId", "targetBrokerId", "leaderEpoch"
    };

    public long moveId;
    public int controllerEpoch;
    public UUID topicId = new UUID(0, 0);
    public int partition;
    public int sourceBrokerId;
    public int targetBrokerId;
    public int leaderEpoch;

    public StartMove() {}

    public StartMove(
            long moveId,
            int controllerEpoch,
            UUID topicId,
            int partition,
            int sourceBrokerId,
            int targetBrokerId,
            int leaderEpoch) {
        this.moveId = moveId;
        this.controllerEpoch = controllerEpoch;
        this.topicId = topicId;
        this.partition = partition;
        this.sourceBrokerId = sourceBrokerId;
        this.targetBrokerId = targetBrokerId;
        this.leaderEpoch = leaderEpoch;
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
            case 1 -> w.writeInt(controllerEpoch);
            case 2 -> w.writeUuid(topicId);
            case 3 -> w.writeInt(partition);
            case 4 -> w.writeInt(sourceBrokerId);
            case 5 -> w.writeInt(targetBrokerId);
            default -> w.writeInt(leaderEpoch);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> moveId = r.readLong();
            case 1 -> controllerEpoch = r.readInt();
            case 2 -> topicId = r.readUuid();
            case 3 -> partition = r.readInt();
            case 4 -> sourceBrokerId = r.readInt();
            case 5 -> targetBrokerId = r.readInt();
            default -> leaderEpoch = r.readInt();
        }
        return r.isLastRead();
    }

    @Override
    public String fieldName(int index) {
        return index < FIELDS.length ? FIELDS[index] : "end";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StartMove m
                && moveId == m.moveId
                && controllerEpoch == m.controllerEpoch
                && Objects.equals(topicId, m.topicId)
                && partition == m.partition
                && sourceBrokerId == m.sourceBrokerId
                && targetBrokerId == m.targetBrokerId
                && leaderEpoch == m.leaderEpoch;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(moveId);
    }

    @Override
    public String toString() {
        return "StartMove{" + moveId + ", " + topicId + "-" + partition + " " + sourceBrokerId + "->" + targetBrokerId
                + ", leaderEpoch=" + leaderEpoch + ", controllerEpoch=" + controllerEpoch + "}";
    }
}
