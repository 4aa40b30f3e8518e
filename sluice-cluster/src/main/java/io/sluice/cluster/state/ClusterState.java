package io.sluice.cluster.state;

import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.PartitionChangeRecord;
import io.sluice.cluster.state.wire.SnapshotRecord;
import io.sluice.cluster.state.wire.TopicRecord;
import io.sluice.codec.error.MalformedInputException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.UUID;

/**
 * The cluster as the controller published it: live brokers, topics with their partitions, the controller epoch that
 * wrote the newest change and the sequence number of the last delta applied. Applying a delta makes a new instance
 * that shares every unchanged topic and partition and every broker chunk the delta does not touch (see
 * {@link BrokerTable}), so a join or a leave costs O(size of the change), not O(brokers) or O(partitions).
 * Immutable; safe to share between threads.
 */
public final class ClusterState {
    /** Before anything was published: ZooKeeper numbers the first delta 0, so the empty state sits at -1. */
    public static final ClusterState EMPTY = new ClusterState(0, -1, BrokerTable.EMPTY, new LinkedHashMap<>());

    private final int controllerEpoch;
    private final long appliedSeq;
    /** Persistent; shares its untouched chunks with the next state. */
    private final BrokerTable brokerTable;
    /** Never modified after construction; shared by the next state when a delta leaves it unchanged. */
    private final LinkedHashMap<UUID, TopicState> topicsOwned;
    private final BrokerMapView brokers;
    private final Map<UUID, TopicState> topicsById;
    private final Map<String, TopicState> topicsByName;

    private ClusterState(int controllerEpoch, long appliedSeq, BrokerTable brokers,
                         LinkedHashMap<UUID, TopicState> topicsById) {
        this(controllerEpoch, appliedSeq, brokers, topicsById, null);
    }

    /**
     * {@code sameTopicsAs} non-null: the topics are that state's, so its name index is shared too (and its broker
     * view, when the brokers are the same table).
     */
    private ClusterState(int controllerEpoch, long appliedSeq, BrokerTable brokers,
                         LinkedHashMap<UUID, TopicState> topicsById, ClusterState sameTopicsAs) {
        this.controllerEpoch = controllerEpoch;
        this.appliedSeq = appliedSeq;
        this.brokerTable = brokers;
        this.topicsOwned = topicsById;
        this.brokers = sameTopicsAs != null && sameTopicsAs.brokerTable == brokers ? sameTopicsAs.brokers
                : new BrokerMapView(brokers);
        this.topicsById = Collections.unmodifiableMap(topicsById);
        if (sameTopicsAs != null) {
            this.topicsByName = sameTopicsAs.topicsByName;
        } else {
            Map<String, TopicState> byName = new HashMap<>(topicsById.size() * 2);
            for (TopicState t : topicsById.values()) {
                byName.put(t.name(), t);
            }
            this.topicsByName = Collections.unmodifiableMap(byName);
        }
    }

    /** Epoch of the controller that wrote the newest applied change; older epochs are rejected. */
    public int controllerEpoch() {
        return controllerEpoch;
    }

    /** Sequence number of the last delta applied (or folded into the snapshot this state was loaded from). */
    public long appliedSeq() {
        return appliedSeq;
    }

    /**
     * Live brokers by id, ascending; read-only. Lookups, size and iteration cost no copy; the navigation methods
     * (ranges, floor/ceiling) build a sorted copy once per state.
     */
    public NavigableMap<Integer, BrokerInfo> brokers() {
        return brokers;
    }

    /** The live broker {@code id}, null when it is not live. O(log brokers), no allocation. */
    public BrokerInfo broker(int id) {
        return brokerTable.get(id);
    }

    /** Whether broker {@code id} is live. O(log brokers), no allocation. */
    public boolean hasBroker(int id) {
        return brokerTable.contains(id);
    }

    public int brokerCount() {
        return brokerTable.size();
    }

    public Map<UUID, TopicState> topicsById() {
        return topicsById;
    }

    public TopicState topic(String name) {
        return topicsByName.get(name);
    }

    public TopicState topic(UUID id) {
        return topicsById.get(id);
    }

    public int partitionCount() {
        int n = 0;
        for (TopicState t : topicsById.values()) {
            n += t.partitionCount();
        }
        return n;
    }

    /** Builds a state from parts, for the controller and tests. */
    public static ClusterState of(int controllerEpoch, long appliedSeq, Iterable<BrokerInfo> brokers,
                                  Iterable<TopicState> topics) {
        BrokerTable b = BrokerTable.of(brokers);
        LinkedHashMap<UUID, TopicState> t = new LinkedHashMap<>();
        for (TopicState topic : topics) {
            t.put(topic.id(), topic);
        }
        return new ClusterState(controllerEpoch, appliedSeq, b, t);
    }

    /** This state re-stamped with a controller epoch and position (a snapshot written by a newer controller). */
    public ClusterState at(int epoch, long seq) {
        return new ClusterState(epoch, seq, brokerTable, topicsOwned, this);
    }

    /**
     * Applies delta {@code seq}.
     *
     * @throws StaleEpochException  when the delta was written by an older controller than the last change applied
     * @throws StateGapException    when the delta does not follow {@link #appliedSeq()}
     * @throws MalformedInputException when it refers to topics or partitions that do not exist
     */
    public ClusterState apply(DeltaRecord delta, long seq) {
        if (delta.controllerEpoch < controllerEpoch) {
            throw new StaleEpochException("delta " + seq, delta.controllerEpoch, controllerEpoch);
        }
        if (delta.prevSeq != appliedSeq) {
            throw new StateGapException("delta " + seq + " follows " + delta.prevSeq + " but the state is at "
                    + appliedSeq);
        }
        BrokerTable b = brokerTable;
        if (!delta.joined.isEmpty() || delta.left.length > 0) {
            List<BrokerInfo> joined = new ArrayList<>(delta.joined.size());
            for (BrokerRecord r : delta.joined) {
                joined.add(r.toInfo());
            }
            b = brokerTable.with(joined, delta.left);
        }
        boolean topicsChanged = !delta.createdTopics.isEmpty() || !delta.deletedTopics.isEmpty()
                || !delta.partitionChanges.isEmpty();
        LinkedHashMap<UUID, TopicState> topics = topicsOwned;
        if (topicsChanged) {
            topics = new LinkedHashMap<>(topicsOwned);
            for (TopicRecord r : delta.createdTopics) {
                TopicState topic = r.toTopic();
                topics.put(topic.id(), topic);
            }
            for (UUID id : delta.deletedTopics) {
                topics.remove(id);
            }
            applyPartitionChanges(topics, delta.partitionChanges, seq);
        }
        return new ClusterState(delta.controllerEpoch, seq, b, topics, topicsChanged ? null : this);
    }

    private static void applyPartitionChanges(Map<UUID, TopicState> topics, List<PartitionChangeRecord> changes,
                                              long seq) {
        if (changes.isEmpty()) {
            return;
        }
        Map<UUID, PartitionState[]> byTopic = new LinkedHashMap<>();
        for (PartitionChangeRecord c : changes) {
            TopicState topic = topics.get(c.topicId);
            if (topic == null) {
                throw new MalformedInputException("delta " + seq + ": partition change for unknown topic id "
                        + c.topicId);
            }
            if (c.partition < 0 || c.partition >= topic.partitionCount()) {
                throw new MalformedInputException("delta " + seq + ": topic " + topic.name() + " partition "
                        + c.partition + " outside 0.." + (topic.partitionCount() - 1));
            }
            if (c.isr == null) {
                throw new MalformedInputException("delta " + seq + ": topic " + topic.name() + " partition "
                        + c.partition + " has a null isr");
            }
            PartitionState[] slots = byTopic.computeIfAbsent(c.topicId, k -> new PartitionState[topic.partitionCount()]);
            PartitionState base = slots[c.partition] != null ? slots[c.partition] : topic.partition(c.partition);
            // A v0 record (written before partition epochs) still counts as a change: one epoch up.
            int partitionEpoch = c.partitionEpoch == PartitionChangeRecord.PARTITION_EPOCH_NOT_CARRIED
                    ? base.partitionEpoch() + 1 : c.partitionEpoch;
            if (c.replicas == null) {
                slots[c.partition] = base.with(c.leader, c.leaderEpoch, c.isr, partitionEpoch);
            } else {
                requireReplicaSet(seq, topic, c);
                slots[c.partition] = new PartitionState(c.replicas, c.leader, c.leaderEpoch, c.isr, partitionEpoch,
                        c.addingReplicas, c.removingReplicas);
            }
        }
        for (Map.Entry<UUID, PartitionState[]> e : byTopic.entrySet()) {
            topics.put(e.getKey(), topics.get(e.getKey()).withPartitions(e.getValue()));
        }
    }

    private static void requireReplicaSet(long seq, TopicState topic, PartitionChangeRecord c) {
        if (c.replicas.length == 0 || c.addingReplicas == null || c.removingReplicas == null) {
            throw new MalformedInputException("delta " + seq + ": topic " + topic.name() + " partition "
                    + c.partition + " changes its replicas to " + java.util.Arrays.toString(c.replicas)
                    + " with adding " + java.util.Arrays.toString(c.addingReplicas) + " and removing "
                    + java.util.Arrays.toString(c.removingReplicas));
        }
    }

    /** A snapshot record that writes this state (topics streamed from the live partition arrays, no copy). */
    public SnapshotRecord toSnapshot() {
        SnapshotRecord s = new SnapshotRecord();
        s.controllerEpoch = controllerEpoch;
        s.lastDeltaSeq = appliedSeq;
        s.brokers = new ArrayList<>(brokerTable.size());
        for (BrokerInfo info : brokerTable) {
            s.brokers.add(BrokerRecord.of(info));
        }
        s.topics = new ArrayList<>(topicsById.size());
        for (TopicState topic : topicsById.values()) {
            s.topics.add(TopicRecord.of(topic));
        }
        return s;
    }

    /** The state a decoded snapshot describes. */
    public static ClusterState fromSnapshot(SnapshotRecord s) {
        List<BrokerInfo> b = new ArrayList<>(s.brokers.size());
        for (BrokerRecord r : s.brokers) {
            b.add(r.toInfo());
        }
        List<TopicState> t = new ArrayList<>(s.topics.size());
        for (TopicRecord r : s.topics) {
            t.add(r.toTopic());
        }
        return of(s.controllerEpoch, s.lastDeltaSeq, b, t);
    }

    /** Same brokers and topics (epoch and position aside). */
    public boolean sameContent(ClusterState o) {
        return brokerTable.sameEntries(o.brokerTable) && topicsById.equals(o.topicsById);
    }

    @Override
    public String toString() {
        return "ClusterState{epoch=" + controllerEpoch + ", seq=" + appliedSeq + ", brokers=" + brokers.keySet()
                + ", topics=" + topicsById.size() + ", partitions=" + partitionCount() + "}";
    }
}
