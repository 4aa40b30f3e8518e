package io.sluice.cluster.state.wire;

import io.sluice.codec.message.ElementType;
import io.sluice.codec.message.Message;
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
 * Mutable value holder; not thread-safe.
 */
public final class DeltaRecord implements Message {
    private static final String[] FIELDS = {
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
        "deletedScram"
    };
    public static final int CURRENT_VERSION = 4;

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

    @Override
    public int typeId() {
        return StateMessages.DELTA;
    }

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
                && deletedScram.isEmpty();
    }

    @Override
    public int version() {
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
    @SuppressWarnings("fallthrough")
    public boolean writeTo(MessageWriter w) {
        switch (w.state()) {
            case 0:
                if (!w.writeInt(controllerEpoch)) {
                    return false;
                }
                w.incrementState();
            case 1:
                if (!w.writeLong(prevSeq)) {
                    return false;
                }
                w.incrementState();
            case 2:
                if (!w.writeList(joined, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
            case 3:
                if (!w.writeIntArray(left)) {
                    return false;
                }
                w.incrementState();
            case 4:
                if (!w.writeList(createdTopics, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
            case 5:
                if (!w.writeList(deletedTopics, ElementType.UUID)) {
                    return false;
                }
                w.incrementState();
            case 6:
                if (!w.writeList(partitionChanges, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
            case 7:
                if (!w.writeBoolean(inSnapshot)) {
                    return false;
                }
                w.incrementState();
                if (version() < 1) {
                    return true;
                }
            case 8:
                if (!w.writeList(configChanges, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
                if (version() < 2) {
                    return true;
                }
            case 9:
                if (!w.writeList(addedPartitions, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
                if (version() < 3) {
                    return true;
                }
            case 10:
                if (!w.writeList(addedAcls, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
            case 11:
                if (!w.writeList(removedAcls, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
                if (version() < 4) {
                    return true;
                }
            case 12:
                if (!w.writeList(setScram, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
            case 13:
                if (!w.writeList(deletedScram, ElementType.MESSAGE)) {
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
                controllerEpoch = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 1:
                prevSeq = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 2:
                joined = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 3:
                left = r.readIntArray();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 4:
                createdTopics = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 5:
                deletedTopics = r.readList(ElementType.UUID);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 6:
                partitionChanges = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 7:
                inSnapshot = r.readBoolean();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
                if (r.version() < 1) {
                    emptyFieldsAfter(0);
                    return true;
                }
            case 8:
                configChanges = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
                if (r.version() < 2) {
                    emptyFieldsAfter(1);
                    return true;
                }
            case 9:
                addedPartitions = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
                if (r.version() < 3) {
                    emptyFieldsAfter(2);
                    return true;
                }
            case 10:
                addedAcls = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 11:
                removedAcls = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
                if (r.version() < 4) {
                    emptyFieldsAfter(3);
                    return true;
                }
            case 12:
                setScram = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 13:
                deletedScram = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            default:
                return true;
        }
    }

    /** The fields a delta of schema {@code version} does not carry read as empty (not as the reused holder's values). */
    private void emptyFieldsAfter(int version) {
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
        setScram = new ArrayList<>();
        deletedScram = new ArrayList<>();
    }

    @Override
    public String fieldName(int index) {
        return index < FIELDS.length ? FIELDS[index] : "end";
    }
}
