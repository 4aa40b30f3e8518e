package io.sluice.cluster.state.wire;

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
public final class PartitionChangeRecord extends StateRecord {
    public static final int CURRENT_VERSION = 2;
    /** The partition epoch of a v0 record, written before the field existed. */
    public static final int PARTITION_EPOCH_NOT_CARRIED = -1;

    /** v0 ends at isr, v1 adds partitionEpoch, v2 the replica set and its reassignment. */
    private static final RecordSchema SCHEMA = RecordSchema.grown(
            StateMessages.PARTITION_CHANGE,
            new int[] {5, 6},
            "topicId",
            "partition",
            "leader",
            "leaderEpoch",
            "isr",
            "partitionEpoch",
            "replicas",
            "addingReplicas",
            "removingReplicas");

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
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeUuid(topicId);
            case 1 -> w.writeInt(partition);
            case 2 -> w.writeInt(leader);
            case 3 -> w.writeInt(leaderEpoch);
            case 4 -> w.writeIntArray(isr);
            case 5 -> w.writeInt(partitionEpoch);
            case 6 -> w.writeIntArray(replicas);
            case 7 -> w.writeIntArray(addingReplicas);
            case 8 -> w.writeIntArray(removingReplicas);
            default -> throw new IllegalStateException("PartitionChangeRecord field " + index);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> topicId = r.readUuid();
            case 1 -> partition = r.readInt();
            case 2 -> leader = r.readInt();
            case 3 -> leaderEpoch = r.readInt();
            case 4 -> isr = r.readIntArray();
            case 5 -> partitionEpoch = r.readInt();
            case 6 -> replicas = r.readIntArray();
            case 7 -> addingReplicas = r.readIntArray();
            case 8 -> removingReplicas = r.readIntArray();
            default -> throw new IllegalStateException("PartitionChangeRecord field " + index);
        }
        return r.isLastRead();
    }

    /** Keeps the version read (so the record writes back as it came) and defaults what an older schema lacks. */
    @Override
    protected void onOlderVersionRead(int version) {
        writeVersion = version;
        if (version < 1) {
            partitionEpoch = PARTITION_EPOCH_NOT_CARRIED;
        }
        if (version < 2) {
            replicas = null;
            addingReplicas = null;
            removingReplicas = null;
        }
    }

    @Override
    RecordSchema schema() {
        return SCHEMA;
    }
}
