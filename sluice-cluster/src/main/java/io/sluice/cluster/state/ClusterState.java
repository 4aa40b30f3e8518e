package io.sluice.cluster.state;

import io.sluice.cluster.state.wire.AclRecord;
import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.ConfigRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.PartitionChangeRecord;
import io.sluice.cluster.state.wire.ScramRecord;
import io.sluice.cluster.state.wire.SnapshotRecord;
import io.sluice.cluster.state.wire.TopicRecord;
import io.sluice.codec.error.MalformedInputException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The cluster as the controller published it: live brokers, topics with their partitions (and their configs), the
 * dynamic broker configurations (per broker id and the cluster default), the client quota configurations (per quota
 * entity path, as Kafka's ZooKeeper mode keeps them below {@code /config}), the access control entries, the SCRAM
 * credentials, the controller epoch that wrote the newest change and the sequence number of the last delta applied.
 * Applying a delta makes a new instance
 * that shares every unchanged topic and partition and every broker chunk the delta does not touch (see
 * {@link BrokerTable}), so a join or a leave costs O(size of the change), not O(brokers) or O(partitions).
 * Immutable; safe to share between threads.
 */
public final class ClusterState {
    private static final NavigableSet<AclEntry> NO_ACLS = Collections.unmodifiableNavigableSet(new TreeSet<>());
    /** Before anything was published: ZooKeeper numbers the first delta 0, so the empty state sits at -1. */
    public static final ClusterState EMPTY = new ClusterState(
            0, -1, BrokerTable.EMPTY, new LinkedHashMap<>(), Map.of(), Map.of(), NO_ACLS, ScramCredentials.EMPTY, null);
    /** The broker id under which the cluster-wide default broker configuration is kept (Kafka's empty name). */
    public static final int CLUSTER_DEFAULT_BROKER = ConfigRecord.CLUSTER_DEFAULT;

    private final int controllerEpoch;
    private final long appliedSeq;
    /** Persistent; shares its untouched chunks with the next state. */
    private final BrokerTable brokerTable;
    /** Never modified after construction; shared by the next state when a delta leaves it unchanged. */
    private final LinkedHashMap<UUID, TopicState> topicsOwned;

    private final BrokerMapView brokers;
    private final Map<UUID, TopicState> topicsById;
    private final Map<String, TopicState> topicsByName;
    /** Dynamic broker configurations by broker id ({@link #CLUSTER_DEFAULT_BROKER} for the default); unmodifiable. */
    private final Map<Integer, Map<String, String>> brokerConfigs;
    /** Every access control entry, sorted; unmodifiable, shared by the next state when a delta leaves it unchanged. */
    private final NavigableSet<AclEntry> acls;
    /** Client quota configurations by entity path ({@code clients/app-1}), sorted; unmodifiable, shared when unchanged. */
    private final Map<String, Map<String, String>> clientQuotaConfigs;
    /** Every SCRAM credential; shared by the next state when a delta leaves them unchanged. */
    private final ScramCredentials scramCredentials;

    /**
     * {@code sameTopicsAs} non-null: the topics are that state's, so its name index is shared too (and its broker
     * view, when the brokers are the same table).
     */
    private ClusterState(
            int controllerEpoch,
            long appliedSeq,
            BrokerTable brokers,
            LinkedHashMap<UUID, TopicState> topicsById,
            Map<Integer, Map<String, String>> brokerConfigs,
            Map<String, Map<String, String>> clientQuotaConfigs,
            NavigableSet<AclEntry> acls,
            ScramCredentials scramCredentials,
            ClusterState sameTopicsAs) {
        this.controllerEpoch = controllerEpoch;
        this.clientQuotaConfigs = clientQuotaConfigs;
        this.acls = acls;
        this.scramCredentials = scramCredentials;
        this.brokerConfigs = brokerConfigs;
        this.appliedSeq = appliedSeq;
        this.brokerTable = brokers;
        this.topicsOwned = topicsById;
        this.brokers = sameTopicsAs != null && sameTopicsAs.brokerTable == brokers
                ? sameTopicsAs.brokers
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

    /**
     * The dynamic configuration of broker {@code brokerId} ({@link #CLUSTER_DEFAULT_BROKER} for the cluster-wide
     * default), empty when it has none; unmodifiable.
     */
    public Map<String, String> brokerConfigs(int brokerId) {
        Map<String, String> c = brokerConfigs.get(brokerId);
        return c == null ? Map.of() : c;
    }

    /** Every dynamic broker configuration by broker id, ascending; unmodifiable. */
    public Map<Integer, Map<String, String>> allBrokerConfigs() {
        return brokerConfigs;
    }

    /**
     * The client quota configurations by quota entity path as Kafka's ZooKeeper mode names them below {@code /config}
     * ({@code clients/app-1}, {@code users/alice}, {@code users/<default>/clients/app-1}, {@code ips/10.0.0.1}), each
     * entity's quota keys and values; sorted, unmodifiable, and the same instance in every state until a quota changes.
     */
    public Map<String, Map<String, String>> clientQuotaConfigs() {
        return clientQuotaConfigs;
    }

    /** This state with {@code quotas} as its client quota configurations (for the controller's tests and tools). */
    public ClusterState withClientQuotaConfigs(Map<String, Map<String, String>> quotas) {
        return new ClusterState(
                controllerEpoch,
                appliedSeq,
                brokerTable,
                topicsOwned,
                brokerConfigs,
                sortedQuotas(quotas),
                acls,
                scramCredentials,
                this);
    }

    private static Map<String, Map<String, String>> sortedQuotas(Map<String, Map<String, String>> quotas) {
        TreeMap<String, Map<String, String>> sorted = new TreeMap<>();
        for (Map.Entry<String, Map<String, String>> e : quotas.entrySet()) {
            if (!e.getValue().isEmpty()) {
                sorted.put(e.getKey(), Collections.unmodifiableMap(new TreeMap<>(e.getValue())));
            }
        }
        return sorted.isEmpty() ? Map.of() : Collections.unmodifiableMap(sorted);
    }

    /** Every access control entry, sorted; unmodifiable. */
    public NavigableSet<AclEntry> acls() {
        return acls;
    }

    /** Every SCRAM credential (AlterUserScramCredentials). */
    public ScramCredentials scramCredentials() {
        return scramCredentials;
    }

    public int partitionCount() {
        int n = 0;
        for (TopicState t : topicsById.values()) {
            n += t.partitionCount();
        }
        return n;
    }

    /** Builds a state from parts, for the controller and tests. */
    public static ClusterState of(
            int controllerEpoch, long appliedSeq, Iterable<BrokerInfo> brokers, Iterable<TopicState> topics) {
        return of(controllerEpoch, appliedSeq, brokers, topics, Map.of());
    }

    /** Builds a state from parts with dynamic broker configurations by broker id. */
    public static ClusterState of(
            int controllerEpoch,
            long appliedSeq,
            Iterable<BrokerInfo> brokers,
            Iterable<TopicState> topics,
            Map<Integer, Map<String, String>> brokerConfigs) {
        return of(controllerEpoch, appliedSeq, brokers, topics, brokerConfigs, List.of());
    }

    /** Builds a state from parts with dynamic broker configurations and access control entries. */
    public static ClusterState of(
            int controllerEpoch,
            long appliedSeq,
            Iterable<BrokerInfo> brokers,
            Iterable<TopicState> topics,
            Map<Integer, Map<String, String>> brokerConfigs,
            Collection<AclEntry> acls) {
        return of(controllerEpoch, appliedSeq, brokers, topics, brokerConfigs, acls, List.of());
    }

    /** Builds a state from parts with dynamic broker configurations, access control entries and SCRAM credentials. */
    public static ClusterState of(
            int controllerEpoch,
            long appliedSeq,
            Iterable<BrokerInfo> brokers,
            Iterable<TopicState> topics,
            Map<Integer, Map<String, String>> brokerConfigs,
            Collection<AclEntry> acls,
            Collection<ScramCredentialEntry> scram) {
        BrokerTable b = BrokerTable.of(brokers);
        LinkedHashMap<UUID, TopicState> t = new LinkedHashMap<>();
        for (TopicState topic : topics) {
            t.put(topic.id(), topic);
        }
        TreeMap<Integer, Map<String, String>> configs = new TreeMap<>();
        for (Map.Entry<Integer, Map<String, String>> e : brokerConfigs.entrySet()) {
            if (!e.getValue().isEmpty()) {
                configs.put(e.getKey(), Collections.unmodifiableMap(new TreeMap<>(e.getValue())));
            }
        }
        return new ClusterState(
                controllerEpoch,
                appliedSeq,
                b,
                t,
                Collections.unmodifiableMap(configs),
                Map.of(),
                acls.isEmpty() ? NO_ACLS : Collections.unmodifiableNavigableSet(new TreeSet<>(acls)),
                ScramCredentials.of(scram),
                null);
    }

    /** This state re-stamped with a controller epoch and position (a snapshot written by a newer controller). */
    public ClusterState at(int epoch, long seq) {
        return new ClusterState(
                epoch, seq, brokerTable, topicsOwned, brokerConfigs, clientQuotaConfigs, acls, scramCredentials, this);
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
            throw new StateGapException(
                    "delta " + seq + " follows " + delta.prevSeq + " but the state is at " + appliedSeq);
        }
        if (delta.joined == null
                || delta.left == null
                || delta.createdTopics == null
                || delta.deletedTopics == null
                || delta.partitionChanges == null
                || delta.configChanges == null
                || delta.addedPartitions == null
                || delta.addedAcls == null
                || delta.removedAcls == null
                || delta.setScram == null
                || delta.deletedScram == null) {
            throw new MalformedInputException("delta " + seq + ": a null list");
        }
        BrokerTable b = brokerTable;
        if (!delta.joined.isEmpty() || delta.left.length > 0) {
            List<BrokerInfo> joined = new ArrayList<>(delta.joined.size());
            for (Object r : delta.joined) {
                joined.add(element(BrokerRecord.class, r, "delta " + seq + " joined")
                        .toInfo());
            }
            b = brokerTable.with(joined, delta.left);
        }
        boolean topicConfigsChanged = false;
        Map<Integer, Map<String, String>> configs = brokerConfigs;
        Map<String, Map<String, String>> quotas = clientQuotaConfigs;
        for (Object change : delta.configChanges) {
            ConfigRecord c = asConfigRecord(change, seq);
            if (c.entityType == ConfigRecord.TOPIC) {
                topicConfigsChanged = true;
            } else if (c.entityType == ConfigRecord.CLIENT_QUOTAS) {
                quotas = sortedQuotas(c.clientQuotaConfigs());
            } else {
                if (configs == brokerConfigs) {
                    configs = new TreeMap<>(brokerConfigs);
                }
                Map<String, String> values = c.configs();
                if (values.isEmpty()) {
                    configs.remove(c.brokerId);
                } else {
                    configs.put(c.brokerId, values);
                }
            }
        }
        if (configs != brokerConfigs) {
            configs = Collections.unmodifiableMap(configs);
        }
        boolean topicsChanged = !delta.createdTopics.isEmpty()
                || !delta.deletedTopics.isEmpty()
                || !delta.partitionChanges.isEmpty()
                || !delta.addedPartitions.isEmpty()
                || topicConfigsChanged;
        LinkedHashMap<UUID, TopicState> topics = topicsOwned;
        if (topicsChanged) {
            topics = new LinkedHashMap<>(topicsOwned);
            for (Object r : delta.createdTopics) {
                TopicState topic = element(TopicRecord.class, r, "delta " + seq + " createdTopics")
                        .toTopic();
                topics.put(topic.id(), topic);
            }
            for (UUID id : delta.deletedTopics) {
                topics.remove(id);
            }
            applyAddedPartitions(topics, delta.addedPartitions, seq);
            applyPartitionChanges(topics, delta.partitionChanges, seq);
            if (topicConfigsChanged) {
                applyTopicConfigs(topics, delta.configChanges, seq);
            }
        }
        return new ClusterState(
                delta.controllerEpoch,
                seq,
                b,
                topics,
                configs,
                quotas,
                applyAcls(delta, seq),
                scramCredentials.apply(delta.deletedScram, delta.setScram, "delta " + seq),
                topicsChanged ? null : this);
    }

    /** CreateAcls and DeleteAcls: removals first, then additions; an unchanged set is shared. */
    private NavigableSet<AclEntry> applyAcls(DeltaRecord delta, long seq) {
        if (delta.addedAcls.isEmpty() && delta.removedAcls.isEmpty()) {
            return acls;
        }
        TreeSet<AclEntry> next = new TreeSet<>(acls);
        for (Object r : delta.removedAcls) {
            next.remove(
                    element(AclRecord.class, r, "delta " + seq + " removedAcls").toEntry());
        }
        for (Object r : delta.addedAcls) {
            next.add(element(AclRecord.class, r, "delta " + seq + " addedAcls").toEntry());
        }
        return Collections.unmodifiableNavigableSet(next);
    }

    private static ConfigRecord asConfigRecord(Object change, long seq) {
        return element(ConfigRecord.class, change, "delta " + seq + " configChanges");
    }

    /** A decoded list element of the expected record type; a null or another message (garbage) is malformed. */
    private static <T> T element(Class<T> type, Object decoded, String where) {
        if (!type.isInstance(decoded)) {
            throw new MalformedInputException(where + ": expected a " + type.getSimpleName() + " but read "
                    + (decoded == null ? "null" : decoded.getClass().getSimpleName()));
        }
        return type.cast(decoded);
    }

    private static void applyTopicConfigs(Map<UUID, TopicState> topics, List<ConfigRecord> changes, long seq) {
        for (ConfigRecord c : changes) {
            if (c.entityType != ConfigRecord.TOPIC) {
                continue;
            }
            Map<String, String> values = c.configs();
            TopicState topic = topics.get(c.topicId);
            if (topic == null) {
                throw new MalformedInputException("delta " + seq + ": config change for unknown topic id " + c.topicId);
            }
            topics.put(c.topicId, topic.withConfigs(values));
        }
    }

    /** The topic {@code c} names; an unknown one is malformed ({@code what} says which list it came from). */
    private static TopicState topicOf(Map<UUID, TopicState> topics, PartitionChangeRecord c, long seq, String what) {
        TopicState topic = topics.get(c.topicId);
        if (topic == null) {
            throw new MalformedInputException("delta " + seq + ": " + what + " unknown topic id " + c.topicId);
        }
        return topic;
    }

    /** CreatePartitions: each record the next partition of its topic, with its complete state. */
    private static void applyAddedPartitions(
            Map<UUID, TopicState> topics, List<PartitionChangeRecord> added, long seq) {
        if (added.isEmpty()) {
            return;
        }
        Map<UUID, List<PartitionState>> byTopic = new LinkedHashMap<>();
        for (Object decoded : added) {
            PartitionChangeRecord c =
                    element(PartitionChangeRecord.class, decoded, "delta " + seq + " addedPartitions");
            TopicState topic = topicOf(topics, c, seq, "partitions added to");
            List<PartitionState> list = byTopic.computeIfAbsent(c.topicId, k -> new ArrayList<>());
            int expected = topic.partitionCount() + list.size();
            if (c.partition != expected || expected >= TopicRecord.MAX_PARTITIONS) {
                throw new MalformedInputException("delta " + seq + ": topic " + topic.name() + " adds partition "
                        + c.partition + " where the next is " + expected);
            }
            if (c.replicas == null || c.isr == null) {
                throw new MalformedInputException("delta " + seq + ": topic " + topic.name() + " adds partition "
                        + c.partition + " without replicas or isr");
            }
            requireReplicaSet(seq, topic, c);
            int partitionEpoch =
                    c.partitionEpoch == PartitionChangeRecord.PARTITION_EPOCH_NOT_CARRIED ? 0 : c.partitionEpoch;
            list.add(new PartitionState(
                    c.replicas, c.leader, c.leaderEpoch, c.isr, partitionEpoch, c.addingReplicas, c.removingReplicas));
        }
        for (Map.Entry<UUID, List<PartitionState>> e : byTopic.entrySet()) {
            topics.put(e.getKey(), topics.get(e.getKey()).withAddedPartitions(e.getValue()));
        }
    }

    private static void applyPartitionChanges(
            Map<UUID, TopicState> topics, List<PartitionChangeRecord> changes, long seq) {
        if (changes.isEmpty()) {
            return;
        }
        Map<UUID, PartitionState[]> byTopic = new LinkedHashMap<>();
        for (Object decoded : changes) {
            PartitionChangeRecord c =
                    element(PartitionChangeRecord.class, decoded, "delta " + seq + " partitionChanges");
            TopicState topic = topicOf(topics, c, seq, "partition change for");
            if (c.partition < 0 || c.partition >= topic.partitionCount()) {
                throw new MalformedInputException("delta " + seq + ": topic " + topic.name() + " partition "
                        + c.partition + " outside 0.." + (topic.partitionCount() - 1));
            }
            if (c.isr == null) {
                throw new MalformedInputException(
                        "delta " + seq + ": topic " + topic.name() + " partition " + c.partition + " has a null isr");
            }
            PartitionState[] slots =
                    byTopic.computeIfAbsent(c.topicId, k -> new PartitionState[topic.partitionCount()]);
            PartitionState base = slots[c.partition] != null ? slots[c.partition] : topic.partition(c.partition);
            // A v0 record (written before partition epochs) still counts as a change: one epoch up.
            int partitionEpoch = c.partitionEpoch == PartitionChangeRecord.PARTITION_EPOCH_NOT_CARRIED
                    ? base.partitionEpoch() + 1
                    : c.partitionEpoch;
            if (c.replicas == null) {
                slots[c.partition] = base.with(c.leader, c.leaderEpoch, c.isr, partitionEpoch);
            } else {
                requireReplicaSet(seq, topic, c);
                slots[c.partition] = new PartitionState(
                        c.replicas,
                        c.leader,
                        c.leaderEpoch,
                        c.isr,
                        partitionEpoch,
                        c.addingReplicas,
                        c.removingReplicas);
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
        for (Map.Entry<Integer, Map<String, String>> e : brokerConfigs.entrySet()) {
            s.brokerConfigs.add(ConfigRecord.broker(e.getKey(), e.getValue()));
        }
        if (!clientQuotaConfigs.isEmpty()) {
            s.brokerConfigs.add(ConfigRecord.clientQuotas(clientQuotaConfigs));
        }
        for (AclEntry acl : acls) {
            s.acls.add(AclRecord.of(acl));
        }
        for (ScramCredentialEntry e : scramCredentials.all()) {
            s.scramCredentials.add(ScramRecord.of(e));
        }
        return s;
    }

    /** The state a decoded snapshot describes. */
    public static ClusterState fromSnapshot(SnapshotRecord s) {
        if (s.brokers == null
                || s.topics == null
                || s.brokerConfigs == null
                || s.acls == null
                || s.scramCredentials == null) {
            throw new MalformedInputException("snapshot at " + s.lastDeltaSeq + ": a null list");
        }
        List<BrokerInfo> b = new ArrayList<>(s.brokers.size());
        for (Object r : s.brokers) {
            b.add(element(BrokerRecord.class, r, "snapshot brokers").toInfo());
        }
        List<TopicState> t = new ArrayList<>(s.topics.size());
        for (Object r : s.topics) {
            t.add(element(TopicRecord.class, r, "snapshot topics").toTopic());
        }
        Map<Integer, Map<String, String>> configs = new TreeMap<>();
        Map<String, Map<String, String>> quotas = null;
        for (Object o : s.brokerConfigs) {
            ConfigRecord c = asConfigRecord(o, s.lastDeltaSeq);
            if (c.entityType == ConfigRecord.CLIENT_QUOTAS) {
                if (quotas != null) {
                    throw new MalformedInputException("snapshot at " + s.lastDeltaSeq + ": two client quota tables");
                }
                quotas = c.clientQuotaConfigs();
                continue;
            }
            if (c.entityType != ConfigRecord.BROKER) {
                throw new MalformedInputException(
                        "snapshot at " + s.lastDeltaSeq + ": a topic config among the " + "broker configs");
            }
            if (configs.put(c.brokerId, c.configs()) != null) {
                throw new MalformedInputException(
                        "snapshot at " + s.lastDeltaSeq + ": broker " + c.brokerId + " has two configs");
            }
        }
        List<AclEntry> acls = new ArrayList<>(s.acls.size());
        for (Object r : s.acls) {
            acls.add(element(AclRecord.class, r, "snapshot acls").toEntry());
        }
        List<ScramCredentialEntry> scram = new ArrayList<>(s.scramCredentials.size());
        for (Object r : s.scramCredentials) {
            scram.add(ScramCredentials.record(r, "snapshot scramCredentials").toEntry());
        }
        ClusterState state = of(s.controllerEpoch, s.lastDeltaSeq, b, t, configs, acls, scram);
        return quotas == null ? state : state.withClientQuotaConfigs(quotas);
    }

    /** Same brokers and topics (epoch and position aside). */
    public boolean sameContent(ClusterState o) {
        return brokerTable.sameEntries(o.brokerTable)
                && topicsById.equals(o.topicsById)
                && brokerConfigs.equals(o.brokerConfigs)
                && acls.equals(o.acls)
                && clientQuotaConfigs.equals(o.clientQuotaConfigs)
                && scramCredentials.equals(o.scramCredentials);
    }

    @Override
    public String toString() {
        return "ClusterState{epoch=" + controllerEpoch + ", seq=" + appliedSeq + ", brokers=" + brokers.keySet()
                + ", topics=" + topicsById.size() + ", partitions=" + partitionCount() + "}";
    }
}
