package io.sluice.cluster.state;

import io.sluice.cluster.state.wire.AclRecord;
import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.ConfigRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.SnapshotRecord;
import io.sluice.codec.error.MalformedInputException;
import java.util.ArrayList;
import java.util.Arrays;
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
 * credentials, the brokers in controlled shutdown (live, but no longer to lead or join an ISR until they register
 * again: KIP-841's rule, which leaders read here too), the controller epoch that wrote the newest change and the
 * sequence number of the last delta applied. Applying a delta makes a new instance
 * that shares every unchanged topic and partition and every broker chunk the delta does not touch (see
 * {@link BrokerTable}), so a join or a leave costs O(size of the change), not O(brokers) or O(partitions).
 * Immutable; safe to share between threads.
 */
public final class ClusterState {
    private static final NavigableSet<AclEntry> NO_ACLS = Collections.unmodifiableNavigableSet(new TreeSet<>());
    /** Before anything was published: ZooKeeper numbers the first delta 0, so the empty state sits at -1. */
    public static final ClusterState EMPTY = new ClusterState(
            0,
            -1,
            BrokerTable.EMPTY,
            ShuttingDownBrokers.NONE,
            new LinkedHashMap<>(),
            Map.of(),
            Map.of(),
            NO_ACLS,
            ScramCredentials.EMPTY,
            null);
    /** The broker id under which the cluster-wide default broker configuration is kept (Kafka's empty name). */
    public static final int CLUSTER_DEFAULT_BROKER = ConfigRecord.CLUSTER_DEFAULT;

    private final int controllerEpoch;
    private final long appliedSeq;
    /** Persistent; shares its untouched chunks with the next state. */
    private final BrokerTable brokerTable;
    /** Live brokers in controlled shutdown, ascending; never modified, shared by the next state when unchanged. */
    private final int[] shuttingDown;
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
            int[] shuttingDown,
            LinkedHashMap<UUID, TopicState> topicsById,
            Map<Integer, Map<String, String>> brokerConfigs,
            Map<String, Map<String, String>> clientQuotaConfigs,
            NavigableSet<AclEntry> acls,
            ScramCredentials scramCredentials,
            ClusterState sameTopicsAs) {
        this.controllerEpoch = controllerEpoch;
        this.shuttingDown = shuttingDown;
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

    /**
     * Whether live broker {@code id} asked for a controlled shutdown and has not registered again since: no election
     * picks it and the controller refuses it in a new ISR (INELIGIBLE_REPLICA), so a leader does not propose it.
     */
    public boolean isShuttingDown(int id) {
        return Arrays.binarySearch(shuttingDown, id) >= 0;
    }

    /** Whether broker {@code id} may lead or join an ISR: live and not in controlled shutdown. No allocation. */
    public boolean isEligibleReplica(int id) {
        return hasBroker(id) && !isShuttingDown(id);
    }

    /** The live brokers in controlled shutdown, ascending (a copy). */
    public int[] shuttingDownBrokers() {
        return shuttingDown.clone();
    }

    /**
     * This state with {@code ids} as the brokers in controlled shutdown (those not live are left out), for snapshots,
     * the controller's tests and tools.
     */
    public ClusterState withShuttingDown(int... ids) {
        return new ClusterState(
                controllerEpoch,
                appliedSeq,
                brokerTable,
                ShuttingDownBrokers.liveSorted(brokerTable, ids, "shuttingDown"),
                topicsOwned,
                brokerConfigs,
                clientQuotaConfigs,
                acls,
                scramCredentials,
                this);
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
                shuttingDown,
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
                ShuttingDownBrokers.NONE,
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
                epoch,
                seq,
                brokerTable,
                shuttingDown,
                topicsOwned,
                brokerConfigs,
                clientQuotaConfigs,
                acls,
                scramCredentials,
                this);
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
                || delta.deletedScram == null
                || delta.shuttingDown == null) {
            throw new MalformedInputException("delta " + seq + ": a null list");
        }
        BrokerTable b = brokerTable;
        if (!delta.joined.isEmpty() || delta.left.length > 0) {
            List<BrokerInfo> joined = new ArrayList<>(delta.joined.size());
            for (Object r : delta.joined) {
                joined.add(DecodedElements.element(BrokerRecord.class, r, "delta " + seq + " joined")
                        .toInfo());
            }
            b = brokerTable.with(joined, delta.left);
        }
        int[] down = ShuttingDownBrokers.after(shuttingDown, delta, b, seq);
        boolean topicConfigsChanged = false;
        Map<Integer, Map<String, String>> configs = brokerConfigs;
        Map<String, Map<String, String>> quotas = clientQuotaConfigs;
        for (Object change : delta.configChanges) {
            ConfigRecord c = DecodedElements.configChange(change, seq);
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
            topics = TopicDeltas.apply(topicsOwned, delta, seq, topicConfigsChanged);
        }
        return new ClusterState(
                delta.controllerEpoch,
                seq,
                b,
                down,
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
            next.remove(DecodedElements.element(AclRecord.class, r, "delta " + seq + " removedAcls")
                    .toEntry());
        }
        for (Object r : delta.addedAcls) {
            next.add(DecodedElements.element(AclRecord.class, r, "delta " + seq + " addedAcls")
                    .toEntry());
        }
        return Collections.unmodifiableNavigableSet(next);
    }

    /** A snapshot record that writes this state (topics streamed from the live partition arrays, no copy). */
    public SnapshotRecord toSnapshot() {
        return ClusterStateSnapshots.write(this);
    }

    /** The state a decoded snapshot describes. */
    public static ClusterState fromSnapshot(SnapshotRecord s) {
        return ClusterStateSnapshots.read(s);
    }

    /** The persistent broker table, for writing snapshots. */
    BrokerTable brokerTable() {
        return brokerTable;
    }

    /** Same brokers and topics (epoch and position aside). */
    public boolean sameContent(ClusterState o) {
        return brokerTable.sameEntries(o.brokerTable)
                && Arrays.equals(shuttingDown, o.shuttingDown)
                && topicsById.equals(o.topicsById)
                && brokerConfigs.equals(o.brokerConfigs)
                && acls.equals(o.acls)
                && clientQuotaConfigs.equals(o.clientQuotaConfigs)
                && scramCredentials.equals(o.scramCredentials);
    }

    @Override
    public String toString() {
        return "ClusterState{epoch=" + controllerEpoch + ", seq=" + appliedSeq + ", brokers=" + brokers.keySet()
                + (shuttingDown.length == 0 ? "" : ", shuttingDown=" + Arrays.toString(shuttingDown))
                + ", topics=" + topicsById.size() + ", partitions=" + partitionCount() + "}";
    }
}
