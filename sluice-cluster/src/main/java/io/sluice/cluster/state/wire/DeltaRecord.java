package io.sluice.cluster.state.wire;

import io.sluice.codec.message.ElementType;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One publication of the controller: the change of one event, or of a batch of membership events that arrived
 * together (coalesced). Applied in this order: brokers joined, brokers left, topics created, topics deleted,
 * partition changes. {@code prevSeq} names the delta (or snapshot position) this one follows, so a reader detects a
 * gap instead of applying on the wrong base.
 * A change too large for one znode is published as a marker with {@code inSnapshot} set and no content: its sequence
 * number orders it, and the snapshot that follows (lastDeltaSeq at or after the marker) carries it.
 * Schema v0: controllerEpoch, prevSeq, joined, left, createdTopics, deletedTopics, partitionChanges, inSnapshot.
 * Schema v1 adds configChanges (each the complete dynamic configuration of a topic or broker after the change,
 * applied last); a v0 delta reads it as empty. A delta is written as v1 only when it carries config changes, so
 * brokers that read only v0 keep reading every other delta.
 * Schema v2 adds addedPartitions (CreatePartitions: each the complete state of a new partition, replica set included,
 * numbered on from the topic's current count; applied after topics created and deleted, before partition changes); a
 * v0 or v1 delta reads it as empty. A delta is written as v2 only when it adds partitions.
 * Schema v3 adds addedAcls and removedAcls (CreateAcls and DeleteAcls: {@link AclRecord}s, removals applied before
 * additions); an older delta reads them as empty. A delta is written as v3 only when it changes ACLs.
 * Schema v4 adds setScram and deletedScram (AlterUserScramCredentials: {@link ScramRecord}s, deletions applied before
 * credentials set); an older delta reads them as empty. A delta is written as v4 only when it changes SCRAM credentials.
 * Schema v5 adds shuttingDown (ControlledShutdown: the brokers that enter controlled shutdown, applied after brokers
 * joined and left; a broker in {@code joined} or {@code left} is no longer shutting down); an older delta reads it as
 * empty. A delta is written as v5 only when a broker enters controlled shutdown.
 * Mutable value holder; not thread-safe.
 */
public final class DeltaRecord extends StateRecord {
    /**
     * v0 ends at inSnapshot, v1 adds configChanges, v2 addedPartitions, v3 the ACL lists, v4 the SCRAM lists, v5
     * shuttingDown.
     */
    private static final RecordSchema SCHEMA = RecordSchema.grown(
            StateMessages.DELTA,
            new int[] {8, 9, 10, 12, 14},
            "controllerEpoch",
            "prevSeq",
            "joined",
            "left",
            "createdTopics",
            "deletedTopics",
            "partitionChanges",
            "inSnapshot",
            "configChanges",
            "addedPartitions",
            "addedAcls",
            "removedAcls",
            "setScram",
            "deletedScram",
            "shuttingDown");

    public static final int CURRENT_VERSION = 5;

    public int controllerEpoch;
    public long prevSeq;
    public List<BrokerRecord> joined = new ArrayList<>();
    public int[] left = new int[0];
    public List<TopicRecord> createdTopics = new ArrayList<>();
    public List<UUID> deletedTopics = new ArrayList<>();
    public List<PartitionChangeRecord> partitionChanges = new ArrayList<>();
    public boolean inSnapshot;
    /** Topic and broker configurations after the change (schema v1). */
    public List<ConfigRecord> configChanges = new ArrayList<>();
    /** New partitions of existing topics, each with its replica set (schema v2). */
    public List<PartitionChangeRecord> addedPartitions = new ArrayList<>();
    /** Access control entries added (schema v3). */
    public List<AclRecord> addedAcls = new ArrayList<>();
    /** Access control entries removed (schema v3). */
    public List<AclRecord> removedAcls = new ArrayList<>();
    /** SCRAM credentials set, each replacing the user's credential of that mechanism (schema v4). */
    public List<ScramRecord> setScram = new ArrayList<>();
    /** SCRAM credentials deleted: user and mechanism only (schema v4). */
    public List<ScramRecord> deletedScram = new ArrayList<>();
    /** Brokers entering controlled shutdown (schema v5). */
    public int[] shuttingDown = new int[0];

    public boolean isEmpty() {
        return joined.isEmpty()
                && left.length == 0
                && createdTopics.isEmpty()
                && deletedTopics.isEmpty()
                && partitionChanges.isEmpty()
                && configChanges.isEmpty()
                && addedPartitions.isEmpty()
                && addedAcls.isEmpty()
                && removedAcls.isEmpty()
                && setScram.isEmpty()
                && deletedScram.isEmpty()
                && shuttingDown.length == 0;
    }

    @Override
    public int version() {
        if (shuttingDown.length > 0) {
            return 5;
        }
        if (!setScram.isEmpty() || !deletedScram.isEmpty()) {
            return 4;
        }
        if (!addedAcls.isEmpty() || !removedAcls.isEmpty()) {
            return 3;
        }
        if (!addedPartitions.isEmpty()) {
            return 2;
        }
        return configChanges.isEmpty() ? 0 : 1;
    }

    @Override
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeInt(controllerEpoch);
            case 1 -> w.writeLong(prevSeq);
            case 2 -> w.writeList(joined, ElementType.MESSAGE);
            case 3 -> w.writeIntArray(left);
            case 4 -> w.writeList(createdTopics, ElementType.MESSAGE);
            case 5 -> w.writeList(deletedTopics, ElementType.UUID);
            case 6 -> w.writeList(partitionChanges, ElementType.MESSAGE);
            case 7 -> w.writeBoolean(inSnapshot);
            case 8 -> w.writeList(configChanges, ElementType.MESSAGE);
            case 9 -> w.writeList(addedPartitions, ElementType.MESSAGE);
            case 10 -> w.writeList(addedAcls, ElementType.MESSAGE);
            case 11 -> w.writeList(removedAcls, ElementType.MESSAGE);
            case 12 -> w.writeList(setScram, ElementType.MESSAGE);
            case 13 -> w.writeList(deletedScram, ElementType.MESSAGE);
            case 14 -> w.writeIntArray(shuttingDown);
            default -> throw new IllegalStateException("DeltaRecord field " + index);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> controllerEpoch = r.readInt();
            case 1 -> prevSeq = r.readLong();
            case 2 -> joined = r.readList(ElementType.MESSAGE);
            case 3 -> left = r.readIntArray();
            case 4 -> createdTopics = r.readList(ElementType.MESSAGE);
            case 5 -> deletedTopics = r.readList(ElementType.UUID);
            case 6 -> partitionChanges = r.readList(ElementType.MESSAGE);
            case 7 -> inSnapshot = r.readBoolean();
            case 8 -> configChanges = r.readList(ElementType.MESSAGE);
            case 9 -> addedPartitions = r.readList(ElementType.MESSAGE);
            case 10 -> addedAcls = r.readList(ElementType.MESSAGE);
            case 11 -> removedAcls = r.readList(ElementType.MESSAGE);
            case 12 -> setScram = r.readList(ElementType.MESSAGE);
            case 13 -> deletedScram = r.readList(ElementType.MESSAGE);
            case 14 -> shuttingDown = r.readIntArray();
            default -> throw new IllegalStateException("DeltaRecord field " + index);
        }
        return r.isLastRead();
    }

    /** The fields a delta of schema {@code version} does not carry read as empty (not as the reused holder's values). */
    @Override
    protected void onOlderVersionRead(int version) {
        if (version < 1) {
            configChanges = new ArrayList<>();
        }
        if (version < 2) {
            addedPartitions = new ArrayList<>();
        }
        if (version < 3) {
            addedAcls = new ArrayList<>();
            removedAcls = new ArrayList<>();
        }
        if (version < 4) {
            setScram = new ArrayList<>();
            deletedScram = new ArrayList<>();
        }
        if (version < 5) {
            shuttingDown = new int[0];
        }
    }

    @Override
    RecordSchema schema() {
        return SCHEMA;
    }
}
