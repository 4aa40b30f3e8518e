package io.sluice.cluster.controller;

import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.ClusterStateException;
import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.StateSerializer;
import io.sluice.cluster.zk.ZkPaths;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows broker membership for the controller through a persistent recursive watch on the registrations: a child's
 * creation or deletion names the broker, so a join or a leave reads only that broker's registration; after
 * take-over, a reconnect or a failure every registration is compared with the state instead. Each
 * {@link #read(ClusterState, DeltaRecord)} turns what changed since the last one into a {@link MembershipChange}
 * (joined, left, bounced) and the joined brokers' records.
 *
 * <p>Watch and connection callbacks (ZooKeeper's event thread) only note the broker ids and ask the controller to
 * reconcile; everything else runs on the controller thread. Thread-safe in that sense; one per controller.
 */
final class MembershipTracker {
    private static final Logger LOG = LoggerFactory.getLogger(MembershipTracker.class);

    private final CuratorFramework client;
    private final int brokerId;
    private final ControllerStats stats;
    private final Runnable reconcile;
    private final CuratorWatcher brokerIdsWatcher = this::onBrokerIdsEvent;
    private final ConnectionStateListener connectionListener = this::onConnectionState;
    /**
     * Broker ids the watch named since the last reconciliation, each with whether its latest event was a deletion;
     * added by ZooKeeper's event thread.
     */
    private final Map<Integer, Boolean> changedBrokerIds = new ConcurrentHashMap<>();
    /** Set when events may have been missed: the next reconciliation compares every registration. */
    private volatile boolean fullScanNeeded = true;
    /** Creation zxid of each broker's registration seen, to tell a bounce from a steady registration. */
    private final Map<Integer, Long> registrationZxids = new HashMap<>();

    private int lastBrokerCversion = -1;

    /** @param reconcile asks the controller to reconcile membership soon (called from any thread) */
    MembershipTracker(CuratorFramework client, int brokerId, ControllerStats stats, Runnable reconcile) {
        this.client = client;
        this.brokerId = brokerId;
        this.stats = stats;
        this.reconcile = reconcile;
    }

    /** Forgets every registration seen and starts watching; the next read compares every registration. */
    void start() throws Exception {
        registrationZxids.clear();
        lastBrokerCversion = -1;
        fullScanNeeded = true;
        client.getConnectionStateListenable().addListener(connectionListener);
        client.watchers()
                .add()
                .withMode(AddWatchMode.PERSISTENT_RECURSIVE)
                .usingWatcher(brokerIdsWatcher)
                .forPath(ZkPaths.BROKER_IDS);
    }

    void stop() {
        client.getConnectionStateListenable().removeListener(connectionListener);
        try {
            client.watchers()
                    .remove(brokerIdsWatcher)
                    .ofType(Watcher.WatcherType.Any)
                    .locally()
                    .forPath(ZkPaths.BROKER_IDS);
        } catch (Exception e) {
            LOG.debug("controller {}: removing the membership watch: {}", brokerId, e.toString());
        }
    }

    /** The next read compares every registration (the ids drained for a failed attempt are gone). */
    void requestFullScan() {
        fullScanNeeded = true;
    }

    /**
     * The membership change since the last read, relative to {@code state}; joined and bounced brokers'
     * registrations are added to {@code delta.joined}.
     */
    MembershipChange read(ClusterState state, DeltaRecord delta) throws Exception {
        MembershipChange change = new MembershipChange(state);
        if (fullScanNeeded) {
            scanAllRegistrations(state, delta, change);
        } else {
            readChangedRegistrations(state, delta, change);
        }
        return change;
    }

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
                changedBrokerIds.put(
                        Integer.parseInt(path.substring(prefix.length())),
                        event.getType() == Watcher.Event.EventType.NodeDeleted);
            } catch (NumberFormatException e) {
                LOG.warn("controller {}: ignoring {}, not a broker id", brokerId, path);
                return;
            }
        } else {
            fullScanNeeded = true;
        }
        reconcile.run();
    }

    /** Events are lost while disconnected (a persistent watch is not replayed): rescan once reconnected. */
    private void onConnectionState(CuratorFramework c, ConnectionState newState) {
        if (newState == ConnectionState.RECONNECTED) {
            fullScanNeeded = true;
            reconcile.run();
        }
    }

    /**
     * The epoch (creation zxid) of broker {@code id}'s registration as last read, or -1 when this controller has not
     * read one. Controller thread only.
     */
    long registrationEpoch(int id) {
        Long epoch = registrationZxids.get(id);
        return epoch == null ? -1 : epoch;
    }

    /** Reads each registration the watch named since the last call: joined, left, bounced or unchanged. */
    private void readChangedRegistrations(ClusterState state, DeltaRecord delta, MembershipChange change)
            throws Exception {
        for (long pending : drainChangedIds()) {
            int id = (int) (pending >> 1);
            boolean deleted = (pending & 1) != 0;
            Stat st = new Stat();
            byte[] data;
            try {
                // After a deletion, ask without data first: a leave then costs no NoNodeException.
                data = deleted && client.checkExists().forPath(ZkPaths.broker(id)) == null
                        ? null
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
        for (Iterator<Map.Entry<Integer, Boolean>> it =
                        changedBrokerIds.entrySet().iterator();
                it.hasNext(); ) {
            Map.Entry<Integer, Boolean> e = it.next();
            it.remove();
            if (n == changes.length) {
                changes = Arrays.copyOf(changes, n * 2 + 1);
            }
            changes[n++] = (long) e.getKey() << 1 | (e.getValue() ? 1 : 0);
        }
        changes = Arrays.copyOf(changes, n);
        Arrays.sort(changes);
        return changes;
    }

    /**
     * Compares every live registration with the state: O(brokers), after take-over, a reconnect or a failed update.
     * A broker whose registration was re-created under a new session (it bounced) is noticed through the parent's
     * child version: more child changes than joins and leaves means some registration was replaced, and only then are
     * the registrations' creation zxids compared.
     */
    private void scanAllRegistrations(ClusterState state, DeltaRecord delta, MembershipChange change) throws Exception {
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
        int childChanges = parent == null || lastBrokerCversion < 0
                ? Integer.MAX_VALUE
                : parent.getCversion() - lastBrokerCversion;
        if (childChanges > change.joined.size() + change.left.size()) {
            for (int id : live) {
                if (change.joined.contains(id) || !state.hasBroker(id)) {
                    continue;
                }
                Stat st = client.checkExists().forPath(ZkPaths.broker(id));
                if (st == null) {
                    // Deleted since the listing: it left. Taken as unchanged instead, a registration made again
                    // before its events are read would look steady, and the bounce would go unnoticed.
                    change.left.add(id);
                    registrationZxids.remove(id);
                    continue;
                }
                Long known = registrationZxids.get(id);
                if (known == null || known != st.getCzxid()) {
                    // A controller that just took over knows no registration: a broker whose registration differs
                    // from the state (restarted on another endpoint while no controller watched) counts as bounced,
                    // and so does one the state marks as in controlled shutdown: the state cannot tell whether this
                    // registration is the one that asked, and a mark left on a broker that restarted meanwhile (a
                    // whole cluster, or a single node, stopped cleanly and started again) would keep every new
                    // replica and every leadership off it for good. A broker still shutting down asks again.
                    boolean changed = known != null
                            || state.isShuttingDown(id)
                            || !state.broker(id).equals(registeredInfo(id));
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

    /** Broker {@code id}'s registration as it is now, null when it is gone or unreadable. */
    private BrokerInfo registeredInfo(int id) throws Exception {
        try {
            return StateSerializer.decodeBroker(
                    ZkPaths.broker(id), client.getData().forPath(ZkPaths.broker(id)));
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
                LOG.error("controller {}: {} holds broker id {}; ignoring it", brokerId, ZkPaths.broker(id), info.id());
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
}
