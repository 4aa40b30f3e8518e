package io.sluice.cluster.state.wire;

import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;

import java.util.UUID;

/**
 * A leader or ISR change of one partition inside a delta.
 * Schema v0: topicId, partition, leader, leaderEpoch, isr. Mutable value holder; not thread-safe.
 */
public final class PartitionChangeRecord implements Message {
    private static final String[] FIELDS = {"topicId", "partition", "leader", "leaderEpoch", "isr"};

    public UUID topicId = new UUID(0, 0);
    public int partition;
    public int leader;
    public int leaderEpoch;
    public int[] isr = new int[0];

    public PartitionChangeRecord() {
    }

    public PartitionChangeRecord(UUID topicId, int partition, int leader, int leaderEpoch, int[] isr) {
        this.topicId = topicId;
        this.partition = partition;
        this.leader = leader;
        this.leaderEpoch = leaderEpoch;
        this.isr = isr;
    }

    @Override
    public int typeId() {
        return StateMessages.PARTITION_CHANGE;
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean writeTo(MessageWriter w) {
        switch (w.state()) {
            case 0:
                if (!w.writeUuid(topicId)) {
                    return false;
                }
                w.incrementState();
            case 1:
                if (!w.writeInt(partition)) {
                    return false;
                }
                w.incrementState();
            case 2:
                if (!w.writeInt(leader)) {
                    return false;
                }
                w.incrementState();
            case 3:
                if (!w.writeInt(leaderEpoch)) {
                    return false;
                }
                w.incrementState();
            case 4:
                if (!w.writeIntArray(isr)) {
                    return false;
                }
                w.incrementState();
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
                leader = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 3:
                leaderEpoch = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 4:
                isr = r.readIntArray();
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
}
