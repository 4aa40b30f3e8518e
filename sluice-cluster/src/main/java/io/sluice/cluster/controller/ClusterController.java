package io.sluice.cluster.controller;

import io.sluice.cluster.assign.PartitionAssigner;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.ClusterStateException;
import io.sluice.cluster.state.CorruptStateException;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.StateGapException;
import io.sluice.cluster.state.StateReader;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.PartitionChangeRecord;
import io.sluice.cluster.state.wire.SnapshotManifest;
import io.sluice.cluster.state.wire.SnapshotManifestDescriptor;
import io.sluice.cluster.state.wire.StateSerializer;
import io.sluice.cluster.state.wire.TopicRecord;
import io.sluice.cluster.zk.ZkPaths;
import io.sluice.codec.part.PartDescriptor;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The controller's work once elected: loads the cluster state (head snapshot, falling back to the previous one if the
 * head is corrupt, plus the deltas after it), follows broker membership, and publishes every change as one small
 * fenced delta, folding deltas into a new snapshot as {@link SnapshotPolicy} decides (once they weigh as much as the
 * last snapshot, and at least {@link ClusterConfig#deltasPerSnapshot()} of them). Membership is followed through a
 * persistent recursive watch on the registrations, so a join or a leave reads only the broker it names; events
 * arriving within {@link ClusterConfig#coalesceDelay()} are published as one delta. Per membership change the work is
 * O(size of the change): the state shares every untouched broker chunk and topic, and {@link PartitionIndex} names
 * the partitions a change can affect. It watches its own snapshot's znodes and rewrites a fresh snapshot when one is
 * changed or removed behind its back.
 *
 * <p>Every method that touches state runs on the controller's single thread; the public operations return futures.
 * Thread-safe; one per broker.
 */
public final class ClusterController implements ControllerElection.Listener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterController.class);
    private static final int DELETES_PER_TRANSACTION = 100;
    private static final long RETRY_DELAY_MILLIS = 500;

    private final CuratorFramework client;
    private final int brokerId;
    private final ClusterConfig config;
    private final ScheduledExecutorService thread;
    private final StateSerializer serializer;
    private final StateReader reader;
    private final AtomicBoolean membershipScheduled = new AtomicBoolean();
    private final CuratorWatcher brokerIdsWatcher = this::onBrokerIdsEvent;
    private final ConnectionStateListener connectionListener = this::onConnectionState;
    /**
     * Broker ids the watch named since the last reconciliation, each with whether its latest event was a deletion;
     * added by ZooKeeper's event thread.
     */
    private final Map<Integer, Boolean> changedBrokerIds = new ConcurrentHashMap<>();
    /** Set when events may have been missed: the next reconciliation compares every registration. */
    private volatile boolean fullScanNeeded = true;
    private final PartitionIndex partitions = new PartitionIndex();
    private final SnapshotPolicy snapshotPolicy;
    private final CuratorWatcher snapshotWatcher = this::onSnapshotEvent;
    private final ControllerStats stats = new ControllerStats();
    private volatile Thread controllerThread;

    private volatile FencedWriter writer;
    /** Set once the state is loaded after election; cleared on resignation or fencing. */
    private volatile boolean ready;
    private volatile ClusterState state;
    private SnapshotManifest head;
    private SnapshotManifest previous;
    private boolean headExists;
    private long nextSnapshotId;
    private int deltasSinceSnapshot;
    private long deltaBytesSinceSnapshot;
    private long lastSnapshotBytes;
    /** Creation zxid of each broker's registration seen, to tell a bounce from a steady registration. */
    private final Map<Integer, Long> registrationZxids = new java.util.HashMap<>();
    private int lastBrokerCversion = -1;

    public ClusterController(CuratorFramework client, int brokerId, ClusterConfig config) {
        this.client = client;
        this.brokerId = brokerId;
        this.config = config;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-controller-" + brokerId);
            t.setDaemon(true);
            controllerThread = t;
            return t;
        });
        this.serializer = new StateSerializer(config.compression(), config.partBytes(), config.maxSnapshotParts(),
                config.maxStateBytes());
        this.reader = new StateReader(client, config);
        this.snapshotPolicy = SnapshotPolicy.of(config.deltasPerSnapshot(), config.partBytes());
    }

    /** The executor election callbacks must run on. */
    public Executor executor() {
        return thread;
    }

    /** True once elected and the published state is loaded, until resignation or fencing. */
    public boolean isActive() {
        return ready && writer != null;
    }

    /** The epoch held while active, else -1. */
    public int epoch() {
        FencedWriter w = writer;
        return w == null ? -1 : w.epoch();
    }

    /** The state as this controller last published it, null when not active. */
    public ClusterState state() {
        return isActive() ? state : null;
    }

    public ControllerStats stats() {
        return stats;
    }

    /** The controller thread, for CPU and allocation measurements; null before it first ran. */
    public Thread controllerThread() {
        return controllerThread;
    }

    // ---- election --------------------------------------------------------------------------------------------

    @Override
    public void elected(FencedWriter w) {
        submit(() -> takeOver(w));
    }

    @Override
    public void resigned() {
        submit(() -> {
            if (writer != null) {
                LOG.info("broker {} stops acting as controller (epoch {})", brokerId, writer.epoch());
            }
            ready = false;
            writer = null;
            state = null;
            unwatchBrokerIds();
        });
    }

    private void takeOver(FencedWriter w) {
        ready = false;
        registrationZxids.clear();
        lastBrokerCversion = -1;
        writer = w;
        try {
            client.createContainers(ZkPaths.BROKER_IDS);
            ensurePersistent(ZkPaths.STATE);
            boolean needSnapshot = load();
            long snapshotsBefore = stats.snapshots.get();
            fullScanNeeded = true;
            watchBrokerIds();
            reconcileMembership();
            if (needSnapshot && stats.snapshots.get() == snapshotsBefore) {
                writeSnapshot();
            } else {
                watchSnapshot();
            }
            ready = true;
            LOG.info("controller {} epoch {} took over at {}", brokerId, w.epoch(), state);
        } catch (ControllerFencedException e) {
            fenced(e);
        } catch (Exception e) {
            LOG.warn("controller {} epoch {}: take-over failed, retrying: {}", brokerId, w.epoch(), e.toString());
            schedule(() -> {
                if (writer == w) {
                    takeOver(w);
                }
            }, RETRY_DELAY_MILLIS);
        }
    }

    private void ensurePersistent(String path) throws Exception {
        try {
            client.create().creatingParentsIfNeeded().forPath(path);
        } catch (KeeperException.NodeExistsException e) {
            // Present from an earlier controller.
        }
    }

    /** Loads the published state; true when a fresh snapshot must be written (corrupt head, unfulfilled marker). */
    private boolean load() throws Exception {
        boolean needSnapshot = false;
        head = null;
        previous = null;
        SnapshotManifest headManifest;
        try {
            headManifest = reader.readHead(null);
        } catch (CorruptStateException e) {
            LOG.error("controller {}: head manifest unreadable ({}); falling back to older snapshots", brokerId,
                    e.getMessage());
            headManifest = null;
            needSnapshot = true;
        }
        headExists = client.checkExists().forPath(ZkPaths.STATE_HEAD) != null;
        long[] snapshotIds = reader.listSnapshots();
        nextSnapshotId = snapshotIds.length == 0 ? 1 : snapshotIds[snapshotIds.length - 1] + 1;
        ClusterState s = null;
        if (headManifest != null) {
            nextSnapshotId = Math.max(nextSnapshotId, headManifest.snapshotId() + 1);
            try {
                s = reader.readSnapshot(headManifest);
                head = headManifest;
            } catch (CorruptStateException e) {
                LOG.error("controller {}: head snapshot corrupt ({}); falling back to older snapshots", brokerId,
                        e.getMessage());
                needSnapshot = true;
            }
        }
        if (s == null && (headManifest != null || needSnapshot)) {
            s = fallback(snapshotIds, headManifest);
        }
        if (s == null) {
            s = ClusterState.EMPTY;
        }
        int applied = 0;
        long bytesBeforeDeltas = reader.bytesRead();
        for (long seq : reader.listDeltas(null)) {
            if (seq <= s.appliedSeq()) {
                continue;
            }
            DeltaRecord d;
            try {
                d = reader.readDelta(seq);
            } catch (CorruptStateException e) {
                LOG.error("controller {}: {}; state continues without it", brokerId, e.getMessage());
                s = s.at(s.controllerEpoch(), seq);
                needSnapshot = true;
                continue;
            }
            if (d == null) {
                continue;
            }
            if (d.inSnapshot) {
                // Its snapshot was never written (the controller that made it died): the change is lost.
                LOG.warn("controller {}: delta {} refers to a snapshot that was never written; skipping it",
                        brokerId, seq);
                s = s.at(Math.max(s.controllerEpoch(), d.controllerEpoch), seq);
                needSnapshot = true;
                continue;
            }
            try {
                s = s.apply(d, seq);
                applied++;
            } catch (StateGapException e) {
                LOG.error("controller {}: {}; publishing a fresh snapshot", brokerId, e.getMessage());
                s = s.at(s.controllerEpoch(), seq);
                needSnapshot = true;
            }
        }
        state = s;
        partitions.rebuild(s);
        deltasSinceSnapshot = applied;
        deltaBytesSinceSnapshot = reader.bytesRead() - bytesBeforeDeltas;
        lastSnapshotBytes = head == null ? 0 : head.totalLength();
        return needSnapshot;
    }

    private ClusterState fallback(long[] snapshotIds, SnapshotManifest skip) throws Exception {
        for (int i = snapshotIds.length - 1; i >= 0; i--) {
            long id = snapshotIds[i];
            if (skip != null && id == skip.snapshotId()) {
                continue;
            }
            try {
                SnapshotManifest m = reader.readManifest(id);
                ClusterState s = reader.readSnapshot(m);
                LOG.warn("controller {}: recovered from snapshot {} at seq {}", brokerId, id, m.lastDeltaSeq());
                head = m;
                return s;
            } catch (ClusterStateException e) {
                LOG.error("controller {}: snapshot {} unreadable too: {}", brokerId, id, e.getMessage());
            }
        }
        LOG.error("controller {}: no readable snapshot; rebuilding from the delta log and live brokers only",
                brokerId);
        return null;
    }

    // ---- membership ------------------------------------------------------------------------------------------

    /**
     * The persistent recursive watch on the registrations: a child's creation or deletion names the broker, so only
     * that broker is read. An event on the parent itself (created or removed) asks for a full scan.
     */
    private void onBrokerIdsEvent(WatchedEvent event) {
        if (event.getType() == Watcher.Event.EventType.None) {
            return;
        }
        String path = event.getPath();
        String prefix = ZkPaths.BROKER_IDS + "/";
        if (path != null && path.startsWith(prefix) && path.indexOf('/', prefix.length()) < 0) {
            try {
                changedBrokerIds.put(Integer.parseInt(path.substring(prefix.length())),
                        event.getType() == Watcher.Event.EventType.NodeDeleted);
            } catch (NumberFormatException e) {
                LOG.warn("controller {}: ignoring {}, not a broker id", brokerId, path);
                return;
            }
        } else {
            fullScanNeeded = true;
        }
        scheduleMembership();
    }

    /** Events are lost while disconnected (a persistent watch is not replayed): rescan once reconnected. */
    private void onConnectionState(CuratorFramework c, ConnectionState newState) {
        if (newState == ConnectionState.RECONNECTED) {
            fullScanNeeded = true;
            scheduleMembership();
        }
    }

    private void watchBrokerIds() throws Exception {
        client.getConnectionStateListenable().addListener(connectionListener);
        client.watchers().add().withMode(AddWatchMode.PERSISTENT_RECURSIVE).usingWatcher(brokerIdsWatcher)
                .forPath(ZkPaths.BROKER_IDS);
    }

    private void unwatchBrokerIds() {
        client.getConnectionStateListenable().removeListener(connectionListener);
        try {
            client.watchers().remove(brokerIdsWatcher).ofType(Watcher.WatcherType.Any).locally()
                    .forPath(ZkPaths.BROKER_IDS);
        } catch (Exception e) {
            LOG.debug("controller {}: removing the membership watch: {}", brokerId, e.toString());
        }
    }

    private void scheduleMembership() {
        if (membershipScheduled.compareAndSet(false, true)) {
            schedule(() -> {
                membershipScheduled.set(false);
                try {
                    reconcileMembership();
                } catch (ControllerFencedException e) {
                    fenced(e);
                } catch (Exception e) {
                    LOG.warn("controller {}: membership update failed, retrying: {}", brokerId, e.toString());
                    // The ids drained for the failed attempt are gone: the retry compares everything.
                    fullScanNeeded = true;
                    schedule(this::scheduleMembership, RETRY_DELAY_MILLIS);
                }
            }, config.coalesceDelay().toMillis());
        }
    }

    private void submit(Runnable task) {
        schedule(task, 0);
    }

    /** Runs {@code task} on the controller thread after {@code delayMillis}; dropped once the controller closed. */
    private void schedule(Runnable task, long delayMillis) {
        try {
            thread.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("controller {} closed; dropping a task", brokerId);
        }
    }

    /**
     * Publishes one delta for the membership changes seen since the last call: normally by reading only the
     * registrations the watch named (O(changes)), after take-over, a reconnect or a failure by comparing every
     * registration with the state ({@link #scanAllRegistrations}). Partitions are looked up through
     * {@link PartitionIndex}: those the changed brokers are replicas of, and those offline.
     */
    private void reconcileMembership() throws Exception {
        if (writer == null) {
            return;
        }
        DeltaRecord delta = new DeltaRecord();
        MembershipChange change = new MembershipChange(state);
        if (fullScanNeeded) {
            scanAllRegistrations(delta, change);
        } else {
            readChangedRegistrations(delta, change);
        }
        if (change.isEmpty()) {
            return;
        }
        delta.left = change.leftIds();
        addLeadershipChanges(delta, change);
        publish(delta);
        stats.joins.addAndGet(change.joined.size());
        stats.leaves.addAndGet(change.left.size());
        stats.bounces.addAndGet(change.bounced.size());
        stats.membershipDeltas.incrementAndGet();
    }

    /** Reads each registration the watch named since the last call: joined, left, bounced or unchanged. */
    private void readChangedRegistrations(DeltaRecord delta, MembershipChange change) throws Exception {
        for (long pending : drainChangedIds()) {
            int id = (int) (pending >> 1);
            boolean deleted = (pending & 1) != 0;
            Stat st = new Stat();
            byte[] data;
            try {
                // After a deletion, ask without data first: a leave then costs no NoNodeException.
                data = deleted && client.checkExists().forPath(ZkPaths.broker(id)) == null ? null
                        : client.getData().storingStatIn(st).forPath(ZkPaths.broker(id));
            } catch (KeeperException.NoNodeException e) {
                data = null;
            }
            boolean known = state.hasBroker(id);
            if (data == null) {
                registrationZxids.remove(id);
                if (known) {
                    change.left.add(id);
                }
            } else if (!known) {
                if (decodeRegistration(id, data, st.getCzxid(), delta)) {
                    change.joined.add(id);
                }
            } else {
                Long seen = registrationZxids.get(id);
                if (seen != null && seen != st.getCzxid()) {
                    if (decodeRegistration(id, data, st.getCzxid(), delta)) {
                        change.bounced.add(id);
                    }
                } else {
                    registrationZxids.put(id, st.getCzxid());
                }
            }
        }
    }

    /** The changed ids, ascending, each as {@code id << 1 | deleted}; removed from the pending map. */
    private long[] drainChangedIds() {
        long[] changes = new long[changedBrokerIds.size()];
        int n = 0;
        for (java.util.Iterator<Map.Entry<Integer, Boolean>> it = changedBrokerIds.entrySet().iterator();
             it.hasNext(); ) {
            Map.Entry<Integer, Boolean> e = it.next();
            it.remove();
            if (n == changes.length) {
                changes = java.util.Arrays.copyOf(changes, n * 2 + 1);
            }
            changes[n++] = (long) e.getKey() << 1 | (e.getValue() ? 1 : 0);
        }
        changes = java.util.Arrays.copyOf(changes, n);
        java.util.Arrays.sort(changes);
        return changes;
    }

    /**
     * Compares every live registration with the state: O(brokers), after take-over, a reconnect or a failed update.
     * A broker whose registration was re-created under a new session (it bounced) is noticed through the parent's
     * child version: more child changes than joins and leaves means some registration was replaced, and only then are
     * the registrations' creation zxids compared.
     */
    private void scanAllRegistrations(DeltaRecord delta, MembershipChange change) throws Exception {
        // Events from here on concern changes the listing below may miss; earlier ones it covers.
        fullScanNeeded = false;
        changedBrokerIds.clear();
        stats.fullScans.incrementAndGet();
        List<String> children;
        Stat parent = new Stat();
        try {
            children = client.getChildren().storingStatIn(parent).forPath(ZkPaths.BROKER_IDS);
        } catch (KeeperException.NoNodeException e) {
            children = List.of();
            parent = null;
        }
        Set<Integer> live = new HashSet<>();
        for (String c : children) {
            try {
                live.add(Integer.parseInt(c));
            } catch (NumberFormatException e) {
                LOG.warn("controller {}: ignoring {}/{}, not a broker id", brokerId, ZkPaths.BROKER_IDS, c);
            }
        }
        for (int id : live) {
            if (!state.hasBroker(id) && readRegistration(id, delta)) {
                change.joined.add(id);
            }
        }
        for (int id : state.brokers().keySet()) {
            if (!live.contains(id)) {
                change.left.add(id);
                registrationZxids.remove(id);
            }
        }
        int childChanges = parent == null || lastBrokerCversion < 0 ? Integer.MAX_VALUE
                : parent.getCversion() - lastBrokerCversion;
        if (childChanges > change.joined.size() + change.left.size()) {
            for (int id : live) {
                if (change.joined.contains(id) || !state.hasBroker(id)) {
                    continue;
                }
                Stat st = client.checkExists().forPath(ZkPaths.broker(id));
                Long known = registrationZxids.get(id);
                if (st != null && (known == null || known != st.getCzxid())) {
                    // A controller that just took over knows no registration: a broker whose registration differs
                    // from the state (restarted on another endpoint while no controller watched) counts as bounced.
                    boolean changed = known != null || !state.broker(id).equals(registeredInfo(id));
                    if (changed && readRegistration(id, delta)) {
                        change.bounced.add(id);
                    } else {
                        registrationZxids.put(id, st.getCzxid());
                    }
                }
            }
        }
        lastBrokerCversion = parent == null ? -1 : parent.getCversion();
    }

    /**
     * Adds the partition changes {@code change} causes: partitions led by a broker that left go offline, partitions
     * led by a bounced broker get a new leader epoch, and offline partitions whose preferred in-sync replica is live
     * get it as leader.
     */
    private void addLeadershipChanges(DeltaRecord delta, MembershipChange change) {
        for (int id : change.left) {
            for (PartitionKey key : partitions.replicaOf(id)) {
                PartitionState ps = partition(key);
                if (ps.leader() == id) {
                    delta.partitionChanges.add(new PartitionChangeRecord(key.topicId(), key.partition(),
                            PartitionState.NO_LEADER, ps.leaderEpoch() + 1, ps.isr()));
                }
            }
        }
        for (int id : change.bounced) {
            for (PartitionKey key : partitions.replicaOf(id)) {
                PartitionState ps = partition(key);
                if (ps.leader() == id) {
                    // Same leader, new incarnation: a new epoch so followers and clients fence the old one.
                    delta.partitionChanges.add(new PartitionChangeRecord(key.topicId(), key.partition(), id,
                            ps.leaderEpoch() + 1, ps.isr()));
                }
            }
        }
        for (PartitionKey key : partitions.offline()) {
            PartitionState ps = partition(key);
            int leader = preferredLiveLeader(ps, change::liveAfter);
            if (leader != PartitionState.NO_LEADER) {
                delta.partitionChanges.add(new PartitionChangeRecord(key.topicId(), key.partition(), leader,
                        ps.leaderEpoch() + 1, ps.isr()));
            }
        }
    }

    private PartitionState partition(PartitionKey key) {
        return state.topic(key.topicId()).partition(key.partition());
    }

    /** Broker {@code id}'s registration as it is now, null when it is gone or unreadable. */
    private BrokerInfo registeredInfo(int id) throws Exception {
        try {
            return StateSerializer.decodeBroker(ZkPaths.broker(id), client.getData().forPath(ZkPaths.broker(id)));
        } catch (KeeperException.NoNodeException | ClusterStateException e) {
            return null;
        }
    }

    /** Reads broker {@code id}'s registration into {@code delta.joined}; false when it is gone or unreadable. */
    private boolean readRegistration(int id, DeltaRecord delta) throws Exception {
        try {
            Stat st = new Stat();
            byte[] data = client.getData().storingStatIn(st).forPath(ZkPaths.broker(id));
            return decodeRegistration(id, data, st.getCzxid(), delta);
        } catch (KeeperException.NoNodeException e) {
            return false;
        }
    }

    /** Decodes a registration into {@code delta.joined} and remembers its creation zxid; false when unreadable. */
    private boolean decodeRegistration(int id, byte[] data, long czxid, DeltaRecord delta) {
        try {
            BrokerInfo info = StateSerializer.decodeBroker(ZkPaths.broker(id), data);
            if (info.id() != id) {
                LOG.error("controller {}: {} holds broker id {}; ignoring it", brokerId, ZkPaths.broker(id),
                        info.id());
                return false;
            }
            delta.joined.add(BrokerRecord.of(info));
            registrationZxids.put(id, czxid);
            return true;
        } catch (ClusterStateException e) {
            LOG.error("controller {}: ignoring unreadable registration: {}", brokerId, e.getMessage());
            return false;
        }
    }

    /** The first replica, in preference order, that is live and in the ISR; NO_LEADER when none is. */
    private static int preferredLiveLeader(PartitionState ps, IntPredicate live) {
        for (int r : ps.replicas()) {
            if (live.test(r) && ps.inIsr(r)) {
                return r;
            }
        }
        return PartitionState.NO_LEADER;
    }

    // ---- operations ------------------------------------------------------------------------------------------

    /**
     * Creates a topic with replicas placed by {@link PartitionAssigner} over the live brokers; leaders are the
     * preferred replicas. The ISR is the leader alone: followers hold no copy until replication exists, so a follower
     * must never be elected in the leader's place. Completes with the topic as published.
     */
    public CompletableFuture<TopicState> createTopic(String name, int partitions, int replicationFactor,
                                                     Map<String, String> configs) {
        return call("createTopic " + name, () -> {
            TopicState existing = state.topic(name);
            if (existing != null) {
                throw new TopicExistsException(name, existing.id());
            }
            List<PartitionAssigner.Candidate> candidates = new ArrayList<>();
            for (BrokerInfo b : state.brokers().values()) {
                candidates.add(new PartitionAssigner.Candidate(b.id(), b.rack()));
            }
            int[][] replicas = PartitionAssigner.assign(candidates, partitions, replicationFactor, name.hashCode());
            PartitionState[] ps = new PartitionState[partitions];
            for (int p = 0; p < partitions; p++) {
                ps[p] = new PartitionState(replicas[p], replicas[p][0], 0, new int[] {replicas[p][0]});
            }
            TopicState topic = new TopicState(UUID.randomUUID(), name, configs, ps);
            DeltaRecord delta = new DeltaRecord();
            delta.createdTopics.add(TopicRecord.of(topic));
            publish(delta);
            return state.topic(name);
        });
    }

    public CompletableFuture<Void> deleteTopic(String name) {
        return call("deleteTopic " + name, () -> {
            TopicState topic = state.topic(name);
            if (topic == null) {
                throw new UnknownTopicException("topic '" + name + "' does not exist");
            }
            DeltaRecord delta = new DeltaRecord();
            delta.deletedTopics.add(topic.id());
            publish(delta);
            return null;
        });
    }

    /**
     * Moves leadership of each partition to its preferred live in-sync replica (bumping the leader epoch when the
     * leader changes). Completes with the state as published.
     */
    public CompletableFuture<ClusterState> electLeaders(Collection<PartitionRef> refs) {
        return call("electLeaders", () -> {
            DeltaRecord delta = new DeltaRecord();
            for (PartitionRef ref : refs) {
                TopicState topic = state.topic(ref.topic());
                if (topic == null || ref.partition() < 0 || ref.partition() >= topic.partitionCount()) {
                    throw new UnknownTopicException("partition " + ref + " does not exist");
                }
                PartitionState ps = topic.partition(ref.partition());
                int leader = preferredLiveLeader(ps, state::hasBroker);
                if (leader != ps.leader()) {
                    delta.partitionChanges.add(new PartitionChangeRecord(topic.id(), ref.partition(), leader,
                            ps.leaderEpoch() + 1, ps.isr()));
                }
            }
            if (!delta.isEmpty()) {
                publish(delta);
            }
            return state;
        });
    }

    /**
     * Sets the in-sync replicas of partitions (what a leader reports as its followers catch up or fall behind). The
     * leader and its epoch stay. Completes with the state as published.
     */
    public CompletableFuture<ClusterState> alterIsr(Map<PartitionRef, int[]> isrs) {
        return call("alterIsr", () -> {
            DeltaRecord delta = new DeltaRecord();
            for (Map.Entry<PartitionRef, int[]> e : isrs.entrySet()) {
                PartitionRef ref = e.getKey();
                TopicState topic = state.topic(ref.topic());
                if (topic == null || ref.partition() < 0 || ref.partition() >= topic.partitionCount()) {
                    throw new UnknownTopicException("partition " + ref + " does not exist");
                }
                PartitionState ps = topic.partition(ref.partition());
                int[] isr = e.getValue().clone();
                if (isr.length == 0) {
                    throw new InvalidIsrException("partition " + ref + ": empty ISR");
                }
                for (int id : isr) {
                    if (!ps.hasReplica(id)) {
                        throw new InvalidIsrException("partition " + ref + ": ISR member " + id
                                + " is not one of the replicas " + java.util.Arrays.toString(ps.replicas()));
                    }
                }
                if (!ps.isOffline() && !java.util.Arrays.stream(isr).anyMatch(id -> id == ps.leader())) {
                    throw new InvalidIsrException("partition " + ref + ": ISR " + java.util.Arrays.toString(isr)
                            + " leaves out the leader " + ps.leader());
                }
                delta.partitionChanges.add(new PartitionChangeRecord(topic.id(), ref.partition(), ps.leader(),
                        ps.leaderEpoch(), isr));
            }
            if (!delta.isEmpty()) {
                publish(delta);
            }
            return state;
        });
    }

    /**
     * Kafka's AlterPartition: the ISR changes partition leader {@code leaderId} proposes, each validated on its own
     * (fenced by leader epoch and partition epoch). Accepted changes bump the partition epoch and are published
     * together in one delta; refused ones change nothing. Completes with one result per change, in request order.
     */
    public CompletableFuture<List<AlterPartitionResult>> alterPartition(int leaderId, List<IsrChangeRequest> changes) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("alterPartition: not yet"));
    }

    /**
     * Kafka's ControlledShutdown: marks broker {@code brokerId} as shutting down (no election picks it until it
     * registers under a new session), moves the leadership of every partition it leads to another live in-sync
     * replica and takes it out of the ISRs that have other members, in one delta. Completes with the partitions it
     * still leads.
     */
    public CompletableFuture<ControlledShutdownResult> controlledShutdown(int brokerId) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("controlledShutdown: not yet"));
    }

    /**
     * Kafka's ElectLeaders: a preferred or unclean election for each partition named, published in one delta.
     * Completes with one result per partition, in request order.
     */
    public CompletableFuture<List<ElectionResult>> electLeaders(Collection<PartitionRef> refs, ElectionType type) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("electLeaders: not yet"));
    }

    /** Writes a fresh snapshot of the current state now (operators, tests, repair). */
    public CompletableFuture<SnapshotManifest> writeSnapshotNow() {
        return call("writeSnapshot", () -> {
            writeSnapshot();
            return head;
        });
    }

    private <T> CompletableFuture<T> call(String what, Callable<T> body) {
        CompletableFuture<T> f = new CompletableFuture<>();
        if (thread.isShutdown()) {
            f.completeExceptionally(new NotControllerException(brokerId, what + " (controller closed)"));
            return f;
        }
        submit(() -> {
            if (writer == null) {
                f.completeExceptionally(new NotControllerException(brokerId, what));
                return;
            }
            try {
                f.complete(body.call());
            } catch (ControllerFencedException e) {
                fenced(e);
                f.completeExceptionally(e);
            } catch (Exception e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    private void fenced(ControllerFencedException e) {
        LOG.warn("controller {}: {}", brokerId, e.getMessage());
        stats.fencedWrites.incrementAndGet();
        ready = false;
        writer = null;
        state = null;
        unwatchBrokerIds();
    }

    // ---- publication -----------------------------------------------------------------------------------------

    private List<CuratorTransactionResult> commit(String what, List<CuratorOp> ops, long bytes) throws Exception {
        FencedWriter w = writer;
        if (w == null) {
            throw new ControllerFencedException(-1, -1, what + " after resignation");
        }
        List<CuratorTransactionResult> r = w.commit(what, ops, bytes);
        stats.transactions.incrementAndGet();
        stats.operations.addAndGet(ops.size());
        stats.bytesWritten.addAndGet(bytes);
        return r;
    }

    /** Publishes {@code delta} on top of the current state: one znode, or a marker plus a snapshot if too large. */
    private void publish(DeltaRecord delta) throws Exception {
        delta.controllerEpoch = writer.epoch();
        delta.prevSeq = state.appliedSeq();
        byte[] bytes = serializer.encodeDelta(delta);
        boolean marker = bytes == null;
        if (marker) {
            DeltaRecord m = new DeltaRecord();
            m.controllerEpoch = delta.controllerEpoch;
            m.prevSeq = delta.prevSeq;
            m.inSnapshot = true;
            bytes = serializer.encodeDelta(m);
        }
        List<CuratorTransactionResult> r = commit("delta", List.of(client.transactionOp().create()
                .withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(ZkPaths.STATE + "/" + ZkPaths.DELTA_PREFIX, bytes)),
                bytes.length);
        String path = r.get(0).getResultPath();
        long seq = ZkPaths.deltaSeq(path.substring(path.lastIndexOf('/') + 1));
        ClusterState before = state;
        state = before.apply(delta, seq);
        partitions.applied(before, delta, state);
        stats.deltas.incrementAndGet();
        deltasSinceSnapshot++;
        deltaBytesSinceSnapshot += bytes.length;
        if (marker || snapshotPolicy.shouldFold(deltasSinceSnapshot, deltaBytesSinceSnapshot, lastSnapshotBytes)) {
            writeSnapshot();
        }
    }

    /** Streams the state into a new snapshot, points the head at it and prunes what no reader needs any more. */
    private void writeSnapshot() throws Exception {
        long id = nextSnapshotId++;
        StateSerializer.EncodedSnapshot enc = serializer.encodeSnapshot(state.toSnapshot());
        List<byte[]> parts = enc.parts();
        for (int i = 0; i < parts.size(); i++) {
            List<CuratorOp> ops = new ArrayList<>(2);
            if (i == 0) {
                ops.add(client.transactionOp().create().forPath(ZkPaths.snapshotDir(id)));
            }
            ops.add(client.transactionOp().create().forPath(ZkPaths.snapshotPart(id, i), parts.get(i)));
            commit("snapshot " + id + " part " + i, ops, parts.get(i).length);
        }
        ByteBuffer h = ByteBuffer.wrap(parts.get(0));
        SnapshotManifest manifest = new SnapshotManifest(id, writer.epoch(), state.appliedSeq(), parts.size(),
                h.getInt(PartDescriptor.TOTAL_LENGTH_OFFSET), h.getInt(PartDescriptor.STREAM_CRC_OFFSET),
                config.compression());
        byte[] mbytes = SnapshotManifestDescriptor.encode(manifest);
        CuratorOp headOp = headExists ? client.transactionOp().setData().forPath(ZkPaths.STATE_HEAD, mbytes)
                : client.transactionOp().create().forPath(ZkPaths.STATE_HEAD, mbytes);
        commit("snapshot " + id + " manifest", List.of(
                client.transactionOp().create().forPath(ZkPaths.snapshotManifest(id), mbytes), headOp),
                2L * mbytes.length);
        headExists = true;
        previous = head;
        head = manifest;
        deltasSinceSnapshot = 0;
        deltaBytesSinceSnapshot = 0;
        lastSnapshotBytes = enc.compressedBytes();
        stats.snapshots.incrementAndGet();
        stats.lastSnapshotParts.set(parts.size());
        stats.lastSnapshotBytes.set(enc.compressedBytes());
        LOG.info("controller {}: snapshot {} at seq {}: {} bytes state, {} compressed in {} parts", brokerId, id,
                manifest.lastDeltaSeq(), enc.uncompressedBytes(), enc.compressedBytes(), parts.size());
        prune();
        watchSnapshot();
    }

    /** Deletes deltas folded into the previous snapshot and every snapshot but the head and the previous one. */
    private void prune() throws Exception {
        long deltaCutoff = previous == null ? -1 : previous.lastDeltaSeq();
        List<CuratorOp> ops = new ArrayList<>();
        for (String child : client.getChildren().forPath(ZkPaths.STATE)) {
            long seq = ZkPaths.deltaSeq(child);
            if (seq >= 0 && seq <= deltaCutoff) {
                ops.add(client.transactionOp().delete().forPath(ZkPaths.STATE + "/" + child));
            }
            long sid = ZkPaths.snapshotId(child);
            if (sid >= 0 && sid != head.snapshotId() && (previous == null || sid != previous.snapshotId())) {
                String dir = ZkPaths.STATE + "/" + child;
                for (String part : client.getChildren().forPath(dir)) {
                    ops.add(client.transactionOp().delete().forPath(dir + "/" + part));
                }
                ops.add(client.transactionOp().delete().forPath(dir));
            }
            if (ops.size() >= DELETES_PER_TRANSACTION) {
                commit("prune", ops, 0);
                ops = new ArrayList<>();
            }
        }
        if (!ops.isEmpty()) {
            commit("prune", ops, 0);
        }
    }

    // ---- snapshot repair -------------------------------------------------------------------------------------

    private void watchSnapshot() throws Exception {
        if (head == null) {
            return;
        }
        client.checkExists().usingWatcher(snapshotWatcher).forPath(ZkPaths.STATE_HEAD);
        client.checkExists().usingWatcher(snapshotWatcher).forPath(ZkPaths.snapshotManifest(head.snapshotId()));
        for (int i = 0; i < head.partCount(); i++) {
            client.checkExists().usingWatcher(snapshotWatcher).forPath(ZkPaths.snapshotPart(head.snapshotId(), i));
        }
    }

    private void onSnapshotEvent(WatchedEvent event) {
        if (event.getType() != Watcher.Event.EventType.NodeDataChanged
                && event.getType() != Watcher.Event.EventType.NodeDeleted) {
            return;
        }
        String path = event.getPath();
        submit(() -> verifySnapshot(path));
    }

    /** Re-reads the head snapshot after a change under it; writes a fresh one if it no longer reads back. */
    private void verifySnapshot(String changedPath) {
        SnapshotManifest h = head;
        if (writer == null || h == null) {
            return;
        }
        boolean headChanged = changedPath != null && changedPath.endsWith(ZkPaths.STATE_HEAD);
        boolean ours = changedPath != null && changedPath.contains(ZkPaths.snapshotDir(h.snapshotId()) + "/");
        if (!headChanged && !ours) {
            return;
        }
        try {
            try {
                SnapshotManifest published = reader.readHead(null);
                if (published == null || !published.equals(h)) {
                    throw new CorruptStateException(ZkPaths.STATE_HEAD + " no longer names snapshot "
                            + h.snapshotId());
                }
                if (ours) {
                    reader.readSnapshot(h);
                }
                watchSnapshot();
            } catch (CorruptStateException e) {
                LOG.error("controller {}: published snapshot damaged ({}); writing a fresh one", brokerId,
                        e.getMessage());
                stats.snapshotRepairs.incrementAndGet();
                writeSnapshot();
            }
        } catch (ControllerFencedException e) {
            fenced(e);
        } catch (Exception e) {
            LOG.warn("controller {}: snapshot check failed: {}", brokerId, e.toString());
        }
    }

    /** The folding rule in force; for reports. */
    public SnapshotPolicy snapshotPolicy() {
        return snapshotPolicy;
    }

    @Override
    public void close() {
        unwatchBrokerIds();
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writer = null;
        serializer.close();
        reader.close();
    }

    /** Counters of the controller's ZooKeeper writes. Thread-safe. */
    public static final class ControllerStats {
        public final AtomicLong transactions = new AtomicLong();
        public final AtomicLong operations = new AtomicLong();
        public final AtomicLong bytesWritten = new AtomicLong();
        public final AtomicLong deltas = new AtomicLong();
        public final AtomicLong membershipDeltas = new AtomicLong();
        public final AtomicLong snapshots = new AtomicLong();
        public final AtomicLong snapshotRepairs = new AtomicLong();
        public final AtomicLong joins = new AtomicLong();
        public final AtomicLong leaves = new AtomicLong();
        public final AtomicLong bounces = new AtomicLong();
        /** Reconciliations that compared every registration (take-over, reconnect, failure); joins read only theirs. */
        public final AtomicLong fullScans = new AtomicLong();
        public final AtomicLong fencedWrites = new AtomicLong();
        public final AtomicLong lastSnapshotParts = new AtomicLong();
        public final AtomicLong lastSnapshotBytes = new AtomicLong();

        @Override
        public String toString() {
            return "transactions=" + transactions + ", operations=" + operations + ", bytesWritten=" + bytesWritten
                    + ", deltas=" + deltas + " (membership " + membershipDeltas + "), snapshots=" + snapshots
                    + ", repairs=" + snapshotRepairs + ", joins=" + joins + ", leaves=" + leaves + ", bounces=" + bounces
                    + ", fullScans=" + fullScans + ", fenced=" + fencedWrites;
        }
    }
}
