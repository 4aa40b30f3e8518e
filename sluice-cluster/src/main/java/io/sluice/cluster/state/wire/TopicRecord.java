package io.sluice.cluster.state.wire;

import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.codec.error.LimitExceededException;
import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.message.ElementType;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A topic with all its partitions, as written into snapshots and topic-created deltas. Partitions are written inline
 * (replicas, leader, leaderEpoch, isr and from v1 partitionEpoch per partition, no per-partition message header) straight from the
 * {@link TopicState} being written, resuming at the exact partition and field where a full chunk stopped, so a
 * 100,000-partition topic is never copied into an intermediate form.
 * Schema v0: topicId, name, configKeys, configValues, partitionCount, partitions.
 * Schema v1 adds partitionEpoch after each partition's isr; a v0 topic reads its partitions at partition epoch 0.
 * Schema v2 adds addingReplicas and removingReplicas after each partition's partitionEpoch (a reassignment in
 * progress); an older topic reads them as empty.
 * Mutable value holder; not thread-safe; a new instance per write.
 */
public final class TopicRecord extends StateRecord {
    /** Partitions one topic may declare; more is treated as a forged count (Kafka itself is far below). */
    public static final int MAX_PARTITIONS = 1 << 20;

    public static final int CURRENT_VERSION = 2;
    private static final RecordSchema SCHEMA = RecordSchema.of(
            StateMessages.TOPIC, "topicId", "name", "configKeys", "configValues", "partitionCount", "partitions");

    private TopicState source;
    private UUID topicId;
    private String name;
    private List<String> configKeys;
    private List<String> configValues;
    private int partitionCount;
    private List<PartitionState> read;

    /** Partition and field within it where writing or reading resumes. */
    private int cursor;

    private int cursorField;
    private int[] pendingReplicas;
    private int pendingLeader;
    private int pendingLeaderEpoch;
    private int[] pendingIsr;
    private int pendingPartitionEpoch;
    private int[] pendingAdding;
    /** Version written; lower only in compatibility tests (what an older controller wrote). */
    private int writeVersion = CURRENT_VERSION;

    public TopicRecord() {}

    /** A record that writes {@code topic} in schema {@code version} (compatibility tests write v0). */
    public static TopicRecord of(TopicState topic, int version) {
        TopicRecord r = of(topic);
        r.writeVersion = version;
        return r;
    }

    @Override
    public int version() {
        return writeVersion;
    }

    /** A record that writes {@code topic}. */
    public static TopicRecord of(TopicState topic) {
        TopicRecord r = new TopicRecord();
        r.source = topic;
        r.topicId = topic.id();
        r.name = topic.name();
        r.configKeys = new ArrayList<>(topic.configs().keySet());
        r.configValues = new ArrayList<>(r.configKeys.size());
        for (String k : r.configKeys) {
            r.configValues.add(topic.configs().get(k));
        }
        r.partitionCount = topic.partitionCount();
        return r;
    }

    /** The topic read; malformed content raises {@link MalformedInputException}. */
    public TopicState toTopic() {
        if (source != null) {
            return source;
        }
        if (topicId == null || name == null || name.isEmpty()) {
            throw new MalformedInputException("TopicRecord: topic id or name missing");
        }
        List<String> keys = configKeys == null ? List.of() : configKeys;
        List<String> values = configValues == null ? List.of() : configValues;
        if (keys.size() != values.size()) {
            throw new MalformedInputException(
                    "TopicRecord " + name + ": " + keys.size() + " config keys but " + values.size() + " values");
        }
        Map<String, String> configs = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i) == null || values.get(i) == null) {
                throw new MalformedInputException("TopicRecord " + name + ": null config entry " + i);
            }
            configs.put(keys.get(i), values.get(i));
        }
        return new TopicState(topicId, name, configs, read.toArray(new PartitionState[0]));
    }

    @Override
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeUuid(topicId);
            case 1 -> w.writeString(name);
            case 2 -> w.writeList(configKeys, ElementType.STRING);
            case 3 -> w.writeList(configValues, ElementType.STRING);
            case 4 -> writePartitionCount(w);
            case 5 -> writePartitions(w);
            default -> throw new IllegalStateException("TopicRecord field " + index);
        };
    }

    /** The count, then the partition cursor set to the first field of the first partition. */
    private boolean writePartitionCount(MessageWriter w) {
        if (source == null) {
            source = toTopic(); // a record read from bytes is written from the topic it read
        }
        if (!w.writeInt(partitionCount)) {
            return false;
        }
        cursor = 0;
        cursorField = 0;
        return true;
    }

    @SuppressWarnings("fallthrough")
    private boolean writePartitions(MessageWriter w) {
        while (cursor < partitionCount) {
            PartitionState p = source.partition(cursor);
            switch (cursorField) {
                case 0:
                    if (!w.writeIntArray(p.replicas())) {
                        return false;
                    }
                    cursorField = 1;
                case 1:
                    if (!w.writeInt(p.leader())) {
                        return false;
                    }
                    cursorField = 2;
                case 2:
                    if (!w.writeInt(p.leaderEpoch())) {
                        return false;
                    }
                    cursorField = 3;
                case 3:
                    if (!w.writeIntArray(p.isr())) {
                        return false;
                    }
                    if (writeVersion < 1) {
                        cursorField = 0;
                        cursor++;
                        break;
                    }
                    cursorField = 4;
                case 4:
                    if (!w.writeInt(p.partitionEpoch())) {
                        return false;
                    }
                    if (writeVersion < 2) {
                        cursorField = 0;
                        cursor++;
                        break;
                    }
                    cursorField = 5;
                case 5:
                    if (!w.writeIntArray(p.addingReplicas())) {
                        return false;
                    }
                    cursorField = 6;
                case 6:
                    if (!w.writeIntArray(p.removingReplicas())) {
                        return false;
                    }
                    cursorField = 0;
                    cursor++;
                    break;
                default:
                    throw new IllegalStateException("partition field " + cursorField);
            }
        }
        return true;
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> topicId = r.readUuid();
            case 1 -> name = r.readString();
            case 2 -> configKeys = r.readList(ElementType.STRING);
            case 3 -> configValues = r.readList(ElementType.STRING);
            case 4 -> {
                return readPartitionCount(r);
            }
            case 5 -> {
                return readPartitions(r);
            }
            default -> throw new IllegalStateException("TopicRecord field " + index);
        }
        return r.isLastRead();
    }

    /** The count, checked before anything is sized by it, then an empty partition list to read into. */
    private boolean readPartitionCount(MessageReader r) {
        partitionCount = r.readInt();
        if (!r.isLastRead()) {
            return false;
        }
        if (partitionCount < 0 || partitionCount > MAX_PARTITIONS) {
            throw new LimitExceededException("TopicRecord.partitionCount", partitionCount, MAX_PARTITIONS);
        }
        // Grows as partitions arrive: a forged count costs nothing until bytes back it.
        read = new ArrayList<>(Math.min(partitionCount, 1024));
        cursorField = 0;
        return true;
    }

    @SuppressWarnings("fallthrough")
    private boolean readPartitions(MessageReader r) {
        while (read.size() < partitionCount) {
            switch (cursorField) {
                case 0:
                    pendingReplicas = r.readIntArray();
                    if (!r.isLastRead()) {
                        return false;
                    }
                    cursorField = 1;
                case 1:
                    pendingLeader = r.readInt();
                    if (!r.isLastRead()) {
                        return false;
                    }
                    cursorField = 2;
                case 2:
                    pendingLeaderEpoch = r.readInt();
                    if (!r.isLastRead()) {
                        return false;
                    }
                    cursorField = 3;
                case 3:
                    pendingIsr = r.readIntArray();
                    if (!r.isLastRead()) {
                        return false;
                    }
                    if (pendingReplicas == null || pendingIsr == null) {
                        throw new MalformedInputException(
                                "TopicRecord " + name + " partition " + read.size() + ": null replicas or isr");
                    }
                    if (r.version() < 1) {
                        addPartition(0);
                        break;
                    }
                    cursorField = 4;
                case 4:
                    pendingPartitionEpoch = r.readInt();
                    if (!r.isLastRead()) {
                        return false;
                    }
                    if (r.version() < 2) {
                        addPartition(pendingPartitionEpoch);
                        break;
                    }
                    cursorField = 5;
                case 5:
                    pendingAdding = r.readIntArray();
                    if (!r.isLastRead()) {
                        return false;
                    }
                    cursorField = 6;
                case 6:
                    int[] removing = r.readIntArray();
                    if (!r.isLastRead()) {
                        return false;
                    }
                    if (pendingAdding == null || removing == null) {
                        throw new MalformedInputException("TopicRecord " + name + " partition " + read.size()
                                + ": null adding or removing replicas");
                    }
                    read.add(new PartitionState(
                            pendingReplicas,
                            pendingLeader,
                            pendingLeaderEpoch,
                            pendingIsr,
                            pendingPartitionEpoch,
                            pendingAdding,
                            removing));
                    pendingReplicas = null;
                    pendingIsr = null;
                    pendingAdding = null;
                    cursorField = 0;
                    break;
                default:
                    throw new IllegalStateException("partition field " + cursorField);
            }
        }
        return true;
    }

    private void addPartition(int partitionEpoch) {
        read.add(new PartitionState(pendingReplicas, pendingLeader, pendingLeaderEpoch, pendingIsr, partitionEpoch));
        pendingReplicas = null;
        pendingIsr = null;
        cursorField = 0;
    }

    @Override
    RecordSchema schema() {
        return SCHEMA;
    }
}
