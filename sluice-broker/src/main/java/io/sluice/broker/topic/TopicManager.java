package io.sluice.broker.topic;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.DynamicBrokerConfig;
import io.sluice.broker.config.EffectiveTopicConfig;
import io.sluice.broker.config.ReplicationThrottles;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.broker.replica.ReplicaManager;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.log.LogConfig;
import io.sluice.log.LogManager;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import io.sluice.log.TopicPartitionKey;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topics of the cluster as this broker applies them, and the logs of the partitions it hosts.
 * The cluster state published by the controller is the source of truth: each new state opens or
 * creates the logs of partitions assigned here, updates leaders and leader epochs, and deletes the
 * logs of deleted topics. Create and delete go to the controller; on a broker that is not the
 * controller they fail with NOT_CONTROLLER, as Kafka's do. Dynamic configuration applies live: each state's dynamic
 * broker configuration (this broker's and the cluster default) updates {@link DynamicBrokerConfig}, and a topic whose
 * configuration or broker defaults changed hands its new effective configuration to each hosted partition and its
 * log; the replication throttles are refreshed from the same state.
 *
 * <p>Thread-safe: lookups are lock-free reads of the newest applied view; states are applied one at
 * a time on the cluster follower's thread.
 *
 * <p>Opening, setting aside and deleting the local logs is done by {@link LocalPartitionLogs}.
 */
public final class TopicManager {
    private static final Logger LOG = LoggerFactory.getLogger(TopicManager.class);

    private final DynamicBrokerConfig dynamicConfig;
    private final ReplicationThrottles throttles;
    private final LogManager logs;
    private final int selfId;
    private final TopicChanges changes = new TopicChanges(this);
    private final Map<String, Partition[]> hosted = new ConcurrentHashMap<>();
    private final List<Consumer<String>> deletionListeners = new CopyOnWriteArrayList<>();
    private final List<BiConsumer<Partition, Partition.Transition>> roleListeners = new CopyOnWriteArrayList<>();
    /** Role changes of the state being applied, told to the role listeners once it is; guarded by applyLock. */
    private final List<Runnable> pendingRoleChanges = new java.util.ArrayList<>();

    private final Object applyLock = new Object();
    private volatile TopicsView view = TopicsView.EMPTY;
    private volatile ClusterNode node;
    private volatile boolean started;
    private final LocalPartitionLogs localLogs;
    private ReplicaManager replicas;

    public TopicManager(BrokerConfig config, LogManager logs) {
        this(new DynamicBrokerConfig(config), new ReplicationThrottles(), logs);
    }

    /**
     * @param dynamicConfig updated here with each applied state
     * @param throttles likewise
     */
    public TopicManager(DynamicBrokerConfig dynamicConfig, ReplicationThrottles throttles, LogManager logs) {
        this.dynamicConfig = dynamicConfig;
        this.throttles = throttles;
        this.logs = logs;
        this.selfId = dynamicConfig.brokerId();
        this.localLogs = new LocalPartitionLogs(logs, dynamicConfig);
        throttles.update(dynamicConfig.current(), Map.of());
    }

    /** The broker's configuration as it is now (server.properties under the dynamic configuration). */
    BrokerConfig config() {
        return dynamicConfig.current();
    }

    /** The broker's layered configuration, updated with each applied state. */
    public DynamicBrokerConfig dynamicConfig() {
        return dynamicConfig;
    }

    /** The replication throttles, updated with each applied state. */
    public ReplicationThrottles replicationThrottles() {
        return throttles;
    }

    /** The log settings of a topic by name, from the newest applied state (broker defaults for unknown topics). */
    public LogConfig logConfigOf(String topic) {
        TopicInfo info = view.byName(topic);
        return TopicLogConfig.of(
                config(), TopicConfigs.resolve(dynamicConfig.live(), info == null ? Map.of() : info.configOverrides()));
    }

    /**
     * Adopts the loaded logs against the node's current state (logs of partitions the cluster does not know are set
     * aside as strays, never served or deleted), then applies every later state the node publishes.
     */
    public void startup(ClusterNode clusterNode, ReplicaManager replication, RecoveryReport recoveryReport)
            throws IOException {
        synchronized (applyLock) {
            this.node = clusterNode;
            this.replicas = replication;
            localLogs.start(recoveryReport);
            ClusterState state = clusterNode.current();
            for (TopicPartitionKey key : List.copyOf(logs.logs().keySet())) {
                TopicState topic = state.topic(key.topic());
                if (topic == null
                        || key.partition() >= topic.partitionCount()
                        || !topic.partition(key.partition()).hasReplica(selfId)) {
                    localLogs.setAside(
                            key.topic(), key.partition(), "the cluster does not assign it to broker " + selfId);
                }
            }
            apply(state);
            started = true;
        }
        clusterNode.addListener(this::onClusterState);
        // a state published after the read above and before the listener was added reaches it only now
        onClusterState(clusterNode.current());
    }

    private void onClusterState(ClusterState state) {
        synchronized (applyLock) {
            if (started && state.appliedSeq() > view.state().appliedSeq()) {
                apply(state);
            }
        }
    }

    /** Called with the lock held: makes the local partitions match {@code state}. */
    private void apply(ClusterState state) {
        TopicsView before = view;
        TopicsView after = TopicsView.of(state, before);
        boolean brokerChanged = dynamicConfig.update(
                state.brokerConfigs(ClusterState.CLUSTER_DEFAULT_BROKER), state.brokerConfigs(selfId));
        boolean anyTopicChanged = before.topics().size() != after.topics().size();
        for (TopicState topic : state.topicsById().values()) {
            TopicInfo info = after.byName(topic.name());
            boolean topicChanged = !info.equals(before.byId(info.id()));
            boolean configChanged = brokerChanged || topicChanged;
            anyTopicChanged |= topicChanged;
            Partition[] parts = hosted.get(topic.name());
            if (parts != null && !firstHosted(parts).topic().id().equals(info.id())) {
                removeLocal(topic.name(), "topic recreated with id " + info.id());
                parts = null;
            }
            Partition[] previous = parts;
            if (parts == null || parts.length < topic.partitionCount()) {
                // New topic, or CreatePartitions grew it: the new slots fill below.
                parts = parts == null
                        ? new Partition[topic.partitionCount()]
                        : java.util.Arrays.copyOf(parts, topic.partitionCount());
            }
            EffectiveTopicConfig effective = TopicConfigs.resolve(dynamicConfig.live(), info.configOverrides());
            boolean any = false;
            for (int p = 0; p < parts.length; p++) {
                PartitionState assignment = topic.partition(p);
                if (!assignment.hasReplica(selfId)) {
                    if (parts[p] != null) {
                        localLogs.removeReplica(
                                replicas,
                                parts[p],
                                "no longer a replica (replicas " + java.util.Arrays.toString(assignment.replicas())
                                        + ")");
                        tellRemoved(parts[p]);
                        parts[p] = null;
                    }
                    continue;
                }
                if (parts[p] == null) {
                    PartitionLog log = localLogs.openOrCreate(info, p, effective);
                    if (log == null) {
                        continue;
                    }
                    parts[p] = new Partition(
                            info,
                            p,
                            log,
                            effective,
                            assignment,
                            selfId,
                            replicas.restoredHighWatermark(topic.name(), p));
                } else if (configChanged) {
                    parts[p].updateConfig(effective, TopicLogConfig.of(config(), effective));
                }
                assign(parts[p], assignment);
                any = true;
            }
            if (any) {
                hosted.put(topic.name(), parts);
            } else if (previous != null && hosted.get(topic.name()) == previous) {
                hosted.remove(topic.name());
            }
        }
        for (TopicInfo gone : before.topics()) {
            if (after.byId(gone.id()) == null) {
                Partition[] parts = hosted.get(gone.name());
                if (parts != null && firstHosted(parts).topic().id().equals(gone.id())) {
                    removeLocal(gone.name(), "topic deleted");
                }
                LOG.info("Topic {} (id {}) deleted", gone.name(), gone.id());
                for (Consumer<String> listener : deletionListeners) {
                    listener.accept(gone.name());
                }
            }
        }
        if (brokerChanged || anyTopicChanged) {
            throttles.update(config(), state.topicsById().values());
        }
        view = after;
        synchronized (this) {
            notifyAll();
        }
        for (Runnable change : pendingRoleChanges) {
            change.run();
        }
        pendingRoleChanges.clear();
    }

    private void assign(Partition partition, PartitionState assignment) {
        try {
            Partition.Transition transition = partition.assign(assignment, System.currentTimeMillis());
            // queued first: the role changed even if the replica manager fails to follow it below
            if (transition != Partition.Transition.NONE && transition != Partition.Transition.ISR_CHANGED) {
                pendingRoleChanges.add(() -> tellRoleChange(partition, transition));
            }
            replicas.onTransition(partition, transition);
        } catch (IOException | RuntimeException e) {
            LOG.error("Cannot take the new assignment {} of {}; it stays unserved here", assignment, partition, e);
        }
    }

    private void tellRoleChange(Partition partition, Partition.Transition transition) {
        for (BiConsumer<Partition, Partition.Transition> listener : roleListeners) {
            try {
                listener.accept(partition, transition);
            } catch (RuntimeException e) {
                LOG.error("A listener failed on {} becoming {}", partition, transition, e);
            }
        }
    }

    private static Partition firstHosted(Partition[] parts) {
        for (Partition p : parts) {
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    private void removeLocal(String name, String why) {
        Partition[] parts = hosted.remove(name);
        if (parts != null) {
            localLogs.removeTopic(replicas, parts, why);
            for (Partition part : parts) {
                if (part != null) {
                    tellRemoved(part);
                }
            }
        }
    }

    /**
     * Queues the removal of a local replica for the role listeners: a coordinator that led it must resign even when
     * the state that moved its leadership away was merged into the one that removed the replica.
     */
    private void tellRemoved(Partition partition) {
        pendingRoleChanges.add(() -> tellRoleChange(partition, Partition.Transition.REMOVED));
    }

    /**
     * Called on the cluster-state thread with each hosted partition whose role changed (BECAME_LEADER,
     * BECAME_FOLLOWER, OFFLINE, REMOVED), once the state that changed it is applied; listeners must not block.
     */
    public void addRoleListener(BiConsumer<Partition, Partition.Transition> listener) {
        roleListeners.add(listener);
    }

    /** Called with the name of each topic after it is deleted (e.g. to forget its committed offsets). */
    public void addDeletionListener(Consumer<String> listener) {
        deletionListeners.add(listener);
    }

    public TopicInfo topic(String name) {
        return view.byName(name);
    }

    public TopicInfo topic(Uuid id) {
        return view.byId(id);
    }

    public Collection<TopicInfo> topics() {
        return view.topics();
    }

    /** The controller's assignment of a topic's partitions (leaders, epochs, replicas, ISR), null when unknown. */
    public TopicState assignment(String name) {
        return view.state().topic(name);
    }

    /** False until the broker has joined the cluster and opened its logs; until then nothing is served. */
    public boolean isStarted() {
        return started;
    }

    /** Whether this broker currently holds the controller epoch. */
    public boolean isController() {
        ClusterNode n = node;
        return n != null && n.isController();
    }

    /** Whether the cluster has this partition, wherever it is led. */
    public boolean exists(String topic, int index) {
        TopicInfo info = view.byName(topic);
        return info != null && index >= 0 && index < info.partitionCount();
    }

    /** The partition when this broker hosts it, as leader or follower, else null. */
    public Partition hostedPartition(String topic, int index) {
        Partition[] parts = hosted.get(topic);
        return parts == null || index < 0 || index >= parts.length ? null : parts[index];
    }

    /** Every partition this broker hosts now, as leader or follower. */
    public List<Partition> hostedPartitions() {
        List<Partition> all = new java.util.ArrayList<>();
        for (Partition[] parts : hosted.values()) {
            for (Partition p : parts) {
                if (p != null) {
                    all.add(p);
                }
            }
        }
        return all;
    }

    /** The partition when this broker leads it, else null; {@link #unservedError} tells the client why. */
    public Partition partition(String topic, int index) {
        Partition[] parts = hosted.get(topic);
        if (parts == null || index < 0 || index >= parts.length) {
            return null;
        }
        Partition p = parts[index];
        return p != null && p.isLeader() ? p : null;
    }

    /**
     * Why {@link #partition} is null for a request that names the leader epoch it knows ({@code currentLeaderEpoch},
     * -1 for none), checked in Kafka's order: a replica hosted here as follower first compares the epoch
     * (FENCED_LEADER_EPOCH below its own, UNKNOWN_LEADER_EPOCH above it), then {@link #unservedError(String, int)}.
     */
    public Errors unservedError(String topic, int index, int currentLeaderEpoch) {
        Partition[] parts = started && currentLeaderEpoch >= 0 ? hosted.get(topic) : null;
        Partition follower = parts == null || index < 0 || index >= parts.length ? null : parts[index];
        if (follower != null) {
            int epoch = follower.leaderEpoch();
            if (currentLeaderEpoch < epoch) {
                return Errors.FENCED_LEADER_EPOCH;
            }
            if (currentLeaderEpoch > epoch) {
                return Errors.UNKNOWN_LEADER_EPOCH;
            }
        }
        return unservedError(topic, index);
    }

    /** Why {@link #partition} is null: UNKNOWN_TOPIC_OR_PARTITION or NOT_LEADER_OR_FOLLOWER. */
    public Errors unservedError(String topic, int index) {
        if (!started) {
            return Errors.NOT_LEADER_OR_FOLLOWER;
        }
        return exists(topic, index) ? Errors.NOT_LEADER_OR_FOLLOWER : Errors.UNKNOWN_TOPIC_OR_PARTITION;
    }

    /** The topic's effective configuration, also for a topic only validated and never created. */
    public EffectiveTopicConfig effectiveConfigPreview(TopicInfo topic) {
        return TopicConfigs.resolve(dynamicConfig.live(), topic.configOverrides());
    }

    /**
     * Creates a topic through the controller and waits until this broker has applied it. numPartitions and
     * replicationFactor of -1 mean the broker defaults.
     *
     * @throws TopicException INVALID_TOPIC_EXCEPTION, TOPIC_ALREADY_EXISTS, INVALID_PARTITIONS,
     *                        INVALID_REPLICATION_FACTOR, INVALID_CONFIG, NOT_CONTROLLER or REQUEST_TIMED_OUT
     */
    public TopicInfo create(
            String name, int numPartitions, int replicationFactor, Map<String, String> overrides, boolean validateOnly)
            throws TopicException {
        return create(name, numPartitions, replicationFactor, null, overrides, validateOnly);
    }

    /**
     * {@link #create(String, int, int, Map, boolean)} with the replicas of each partition given ({@code assignments}
     * non-null, partition order; numPartitions and replicationFactor are then -1), checked by the controller.
     */
    public TopicInfo create(
            String name,
            int numPartitions,
            int replicationFactor,
            int[][] assignments,
            Map<String, String> overrides,
            boolean validateOnly)
            throws TopicException {
        return changes.create(name, numPartitions, replicationFactor, assignments, overrides, validateOnly);
    }

    /** Deletes a topic through the controller and waits until this broker has removed its logs. */
    public void delete(String name) throws TopicException {
        changes.delete(name);
    }

    /** Waits until this broker has applied a state in which topic {@code name} has {@code count} partitions or more. */
    public void awaitPartitions(String name, int count) throws TopicException {
        changes.awaitPartitions(name, count);
    }

    /** The newest applied view. */
    TopicsView view() {
        return view;
    }

    /** The cluster node once {@link #startup} ran, else null. */
    ClusterNode clusterNode() {
        return node;
    }

    int selfId() {
        return selfId;
    }

    /** How long a topic change waits for the controller and for this broker to apply it (sluice.controller.wait.ms). */
    public long controllerWaitMs() {
        return config().controllerWaitMs();
    }

    /** Waits until {@code probe} gives a value, on this broker's applied states; REQUEST_TIMED_OUT past the wait. */
    <T> T awaitApplied(java.util.function.Supplier<T> probe, String what) throws TopicException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(controllerWaitMs());
        synchronized (this) {
            T value;
            while ((value = probe.get()) == null) {
                long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (leftMs <= 0) {
                    throw new TopicException(Errors.REQUEST_TIMED_OUT, "Timed out waiting for " + what + ".");
                }
                try {
                    wait(leftMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TopicException(Errors.REQUEST_TIMED_OUT, "Interrupted while waiting for " + what + ".");
                }
            }
            return value;
        }
    }

    static Uuid toKafka(UUID id) {
        return new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    public static void validateName(String name) throws TopicException {
        try {
            Topic.validate(name);
        } catch (InvalidTopicException e) {
            throw new TopicException(Errors.INVALID_TOPIC_EXCEPTION, e.getMessage());
        }
    }
}
