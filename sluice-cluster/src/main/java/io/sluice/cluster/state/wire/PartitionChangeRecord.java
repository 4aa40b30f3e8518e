package io.sluice.cluster.state.wire;

import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.UUID;

/**
 * A leader or ISR change of one partition inside a delta.
 * Schema v0: topicId, partition, leader, leaderEpoch, isr.
 * Schema v1 adds partitionEpoch; a v0 record reads it as {@link #PARTITION_EPOCH_NOT_CARRIED}, which applying the
 * change turns into the partition's epoch plus one (every change bumps it).
 * Mutable value holder; not thread-safe.
 */
public final class PartitionChangeRecord implements Message {
    public static final int CURRENT_VERSION = 2;
    /** The partition epoch of a v0 record, written before the field existed. */
    public static final int PARTITION_EPOCH_NOT_CARRIED = -1;

    private static final String[] FIELDS = {
        "topicId",
        "partition",
        "leader",
        "leaderEpoch",
        "isr",
        "partitionEpoch",
        "replicas",
        "addingReplicas",
        "removingReplicas"
    };

    public UUID topicId = new UUID(0, 0);
    public int partition;
    public int leader;
    public int leaderEpoch;
    public int[] isr = new int[0];
    public int partitionEpoch = PARTITION_EPOCH_NOT_CARRIED;
    /** The replica set after the change; null when unchanged (and in records older than v2). */
    public int[] replicas;

    public int[] addingReplicas;
    public int[] removingReplicas;
    /** Version written; lower only in compatibility tests (what an older controller wrote). */
    public int writeVersion = CURRENT_VERSION;

    public PartitionChangeRecord() {}

    /** A change that does not name its partition epoch: applying it bumps the partition's epoch by one. */
    public PartitionChangeRecord(UUID topicId, int partition, int leader, int leaderEpoch, int[] isr) {
        this(topicId, partition, leader, leaderEpoch, isr, PARTITION_EPOCH_NOT_CARRIED);
    }

    public PartitionChangeRecord(
            UUID topicId, int partition, int leader, int leaderEpoch, int[] isr, int partitionEpoch) {
        this.topicId = topicId;
        this.partition = partition;
        this.leader = leader;
        this.leaderEpoch = leaderEpoch;
        this.isr = isr;
        this.partitionEpoch = partitionEpoch;
    }

    /** The change that makes partition {@code partition} of topic {@code topicId} into {@code state}. */
    public static PartitionChangeRecord of(UUID topicId, int partition, io.sluice.cluster.state.PartitionState state) {
        PartitionChangeRecord r = new PartitionChangeRecord(
                topicId, partition, state.leader(), state.leaderEpoch(), state.isr(), state.partitionEpoch());
        r.replicas = state.replicas();
        r.addingReplicas = state.addingReplicas();
        r.removingReplicas = state.removingReplicas();
        return r;
    }

    @Override
    public int version() {
        return writeVersion;
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
                if (writeVersion < 1) {
                    return true;
                }
            case 5:
                if (!w.writeInt(partitionEpoch)) {
                    return false;
                }
                w.incrementState();
                if (writeVersion < 2) {
                    return true;
                }
            case 6:
                if (!w.writeIntArray(replicas)) {
                    return false;
                }
                w.incrementState();
            case 7:
                if (!w.writeIntArray(addingReplicas)) {
                    return false;
                }
                w.incrementState();
            case 8:
                if (!w.writeIntArray(removingReplicas)) {
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
                writeVersion = r.version();
                if (r.version() < 1) {
                    partitionEpoch = PARTITION_EPOCH_NOT_CARRIED;
                    return true;
                }
            case 5:
                partitionEpoch = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
                if (r.version() < 2) {
                    replicas = null;
                    addingReplicas = null;
                    removingReplicas = null;
                    return true;
                }
            case 6:
                replicas = r.readIntArray();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 7:
                addingReplicas = r.readIntArray();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 8:
                removingReplicas = r.readIntArray();
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
