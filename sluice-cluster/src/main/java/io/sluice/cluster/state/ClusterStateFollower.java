package io.sluice.cluster.state;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.SnapshotManifest;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker's copy of the cluster state. It watches the head manifest and the delta log and, on every change, reads
 * only what is new: the head and the delta list (asked together, with the delta after the local position read
 * ahead, so that one new delta costs one wait for ZooKeeper), the deltas after the local position (asked together,
 * applied in order), and the head snapshot only where the deltas do not lead to it (at start, or after falling behind
 * a fold whose deltas were pruned). Changes from an older controller epoch are rejected ({@link StaleEpochException});
 * unreadable parts or deltas raise a typed {@link CorruptStateException} that is kept in {@link #lastError()} while
 * the last good state stays current. A delta that repeats the one applied just before it (same {@code prevSeq}, same
 * bytes: written twice by a controller that sent its write again after a lost reply) is skipped, its seq taken as
 * applied. Listeners get every new state, in order, on the follower's thread.
 *
 * <p>Thread-safe: reads of {@link #current()} from any thread; all ZooKeeper work runs serially on the executor.
 * One per broker (or per lightweight participant).
 */
public final class ClusterStateFollower implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterStateFollower.class);

    private final CuratorFramework client;
    private final String name;
    private final StateReader reader;
    private final Executor executor;
    private final ExecutorService ownedExecutor;
    private final List<Consumer<ClusterState>> listeners = new CopyOnWriteArrayList<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Object refreshLock = new Object();
    private final CuratorWatcher watcher = this::onWatch;
    private final ConnectionStateListener connectionListener = this::onConnectionState;
    private final AtomicLong snapshotsLoaded = new AtomicLong();
    private final AtomicLong deltasApplied = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong duplicatesSkipped = new AtomicLong();
    /** Refresh thread only (under the refresh lock). */
    private AppliedDelta lastApplied = AppliedDelta.NONE;

    private volatile ClusterState current = ClusterState.EMPTY;
    private volatile ClusterStateException lastError;
    private volatile boolean closed;
    /** The last refresh's wait for the head and the delta list, and for the deltas (for the debug log). */
    private long lastListNanos;

    private long lastDeltaReadNanos;

    /**
     * @param executor runs the reads; {@code null} gives the follower its own thread. A shared executor lets many
     *                 lightweight followers share a few threads.
     */
    public ClusterStateFollower(CuratorFramework client, ClusterConfig config, String name, Executor executor) {
        this.client = client;
        this.name = name;
        this.reader = new StateReader(client, config);
        if (executor == null) {
            this.ownedExecutor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "sluice-state-follower-" + name);
                t.setDaemon(true);
                return t;
            });
            this.executor = ownedExecutor;
        } else {
            this.ownedExecutor = null;
            this.executor = executor;
        }
    }

    public void start() {
        client.getConnectionStateListenable().addListener(connectionListener);
        schedule();
    }

    public ClusterState current() {
        return current;
    }

    /** Called with every new state, on the follower's thread; must not block. */
    public void addListener(Consumer<ClusterState> listener) {
        listeners.add(listener);
    }

    public void removeListener(Consumer<ClusterState> listener) {
        listeners.remove(listener);
    }

    /** The last read failure (corrupt part, stale epoch), null once a read succeeds again. */
    public ClusterStateException lastError() {
        return lastError;
    }

    public long snapshotsLoaded() {
        return snapshotsLoaded.get();
    }

    public long deltasApplied() {
        return deltasApplied.get();
    }

    /** Deltas skipped as a second copy of the delta applied just before them. */
    public long duplicatesSkipped() {
        return duplicatesSkipped.get();
    }

    /** Snapshots or deltas refused for a stale epoch. */
    public long rejected() {
        return rejected.get();
    }

    /** Deltas that came with the head and the delta list (read ahead) instead of by a read of their own. */
    public long deltasReadAhead() {
        synchronized (refreshLock) {
            return reader.deltasReadAhead();
        }
    }

    /** Znode bytes read so far. */
    public long bytesRead() {
        synchronized (refreshLock) {
            return reader.bytesRead();
        }
    }

    private void onWatch(WatchedEvent event) {
        if (event.getType() != Watcher.Event.EventType.None) {
            LOG.debug("follower {}: {} {}", name, event.getType(), event.getPath());
            schedule();
        }
    }

    private void onConnectionState(CuratorFramework c, ConnectionState state) {
        if (state == ConnectionState.RECONNECTED) {
            schedule();
        }
    }

    /** Asks for a refresh; requests arriving while one is queued are coalesced into it. */
    public void schedule() {
        if (!closed && scheduled.compareAndSet(false, true)) {
            try {
                executor.execute(this::runRefresh);
            } catch (RuntimeException e) {
                scheduled.set(false);
                LOG.warn("follower {}: cannot schedule a refresh: {}", name, e.toString());
            }
        }
    }

    private void runRefresh() {
        synchronized (refreshLock) {
            scheduled.set(false);
            if (closed) {
                return;
            }
            ClusterState before = current;
            long started = System.nanoTime();
            lastListNanos = 0;
            lastDeltaReadNanos = 0;
            try {
                refresh();
            } catch (ClusterStateException e) {
                lastError = e;
                LOG.warn("follower {}: keeping state at seq {}: {}", name, current.appliedSeq(), e.getMessage());
            } catch (Exception e) {
                LOG.warn(
                        "follower {}: refresh failed, retrying on the next change or reconnect: {}",
                        name,
                        e.toString());
            }
            if (current != before) {
                long read = System.nanoTime();
                for (Consumer<ClusterState> l : listeners) {
                    try {
                        l.accept(current);
                    } catch (RuntimeException e) {
                        LOG.warn("follower {}: state listener failed", name, e);
                    }
                }
                if (LOG.isDebugEnabled()) {
                    LOG.debug(
                            "follower {}: seq {} -> {} in {} us (head and list {} us, deltas {} us), listeners {} us",
                            name,
                            before.appliedSeq(),
                            current.appliedSeq(),
                            (read - started) / 1000,
                            lastListNanos / 1000,
                            lastDeltaReadNanos / 1000,
                            (System.nanoTime() - read) / 1000);
                }
            }
        }
    }

    /**
     * Reads what is new. Deltas come first: a follower that is only a few changes behind a freshly folded snapshot
     * applies those deltas (O(change)) instead of reading the whole snapshot again. The snapshot is read when the
     * follower has no state yet, when the deltas that lead to the head are gone (folded and pruned), or when one of
     * them does not continue the chain (a marker whose change only the snapshot carries, a gap).
     */
    private void refresh() throws Exception {
        long started = System.nanoTime();
        long appliedSeq = current.appliedSeq();
        StateReader.HeadAndDeltas read = reader.readHeadAndDeltas(watcher, appliedSeq < 0 ? -1 : appliedSeq + 1);
        lastListNanos = System.nanoTime() - started;
        SnapshotManifest head = read.head();
        long[] deltas = read.deltas();
        ClusterState state = current;
        boolean snapshotRead = false;
        if (head != null && head.lastDeltaSeq() > state.appliedSeq()) {
            if (head.controllerEpoch() < state.controllerEpoch()) {
                rejected.incrementAndGet();
                throw new StaleEpochException(
                        "snapshot " + head.snapshotId(), head.controllerEpoch(), state.controllerEpoch());
            }
            if (state.appliedSeq() < 0 || !deltasLeadTowards(head, deltas, state.appliedSeq())) {
                state = readSnapshot(head);
                snapshotRead = true;
            }
        }
        StateReader.DeltaReads reads = reader.deltaReads(deltas);
        for (int i = 0; i < deltas.length; i++) {
            long seq = deltas[i];
            if (seq <= state.appliedSeq()) {
                continue;
            }
            long reading = System.nanoTime();
            DeltaRecord delta = reads.read(i);
            lastDeltaReadNanos += System.nanoTime() - reading;
            if (delta != null && lastApplied.isRepeatedBy(state, delta, reads.lastReadBytes())) {
                // The same change written twice (a write sent again after its reply was lost, by a controller
                // that did not guard against it); the controller went on from the second copy's seq.
                LOG.info("follower {}: delta {} repeats delta {}; taking its seq", name, seq, state.appliedSeq());
                state = state.at(state.controllerEpoch(), seq);
                lastApplied = lastApplied.movedTo(seq);
                duplicatesSkipped.incrementAndGet();
                current = state;
                continue;
            }
            boolean continuesChain = delta != null && !delta.inSnapshot && delta.prevSeq == state.appliedSeq();
            if (!continuesChain && !snapshotRead && head != null && head.lastDeltaSeq() >= seq) {
                // The deltas stop leading to the head here; the snapshot covers this change.
                state = readSnapshot(head);
                snapshotRead = true;
                continue;
            }
            if (delta == null) {
                // Folded into a snapshot and deleted meanwhile: the head watch brings us back.
                schedule();
                break;
            }
            if (delta.inSnapshot) {
                // The change is only in the snapshot the controller writes next; the head watch fires then.
                break;
            }
            try {
                state = state.apply(delta, seq);
            } catch (StaleEpochException e) {
                rejected.incrementAndGet();
                throw e;
            } catch (StateGapException e) {
                if (head != null && head.lastDeltaSeq() >= seq) {
                    schedule();
                    break;
                }
                throw e;
            } catch (io.sluice.codec.error.CodecException e) {
                throw new CorruptStateException("delta " + seq + ": " + e.getMessage(), e);
            }
            lastApplied = new AppliedDelta(seq, delta.prevSeq, reads.lastReadBytes());
            deltasApplied.incrementAndGet();
            current = state;
        }
        lastError = null;
    }

    /** The delta last applied: its seq, the seq it followed and its znode bytes, to recognize a repeat of it. */
    private record AppliedDelta(long seq, long prevSeq, byte[] bytes) {
        static final AppliedDelta NONE = new AppliedDelta(-1, -1, null);

        /** Whether {@code delta} (of {@code deltaBytes}) repeats this delta, which {@code state} ends at. */
        boolean isRepeatedBy(ClusterState state, DeltaRecord delta, byte[] deltaBytes) {
            return bytes != null
                    && state.appliedSeq() == seq
                    && delta.prevSeq == prevSeq
                    && Arrays.equals(bytes, deltaBytes);
        }

        AppliedDelta movedTo(long newSeq) {
            return new AppliedDelta(newSeq, prevSeq, bytes);
        }
    }

    /** Whether the first delta after {@code appliedSeq} is one the head folded (so the deltas lead to it). */
    private static boolean deltasLeadTowards(SnapshotManifest head, long[] deltas, long appliedSeq) {
        for (long seq : deltas) {
            if (seq > appliedSeq) {
                return seq <= head.lastDeltaSeq();
            }
        }
        return false;
    }

    private ClusterState readSnapshot(SnapshotManifest head) throws Exception {
        ClusterState state = reader.readSnapshot(head);
        snapshotsLoaded.incrementAndGet();
        current = state;
        return state;
    }

    @Override
    public void close() {
        closed = true;
        client.getConnectionStateListenable().removeListener(connectionListener);
        if (ownedExecutor != null) {
            ownedExecutor.shutdownNow();
        }
        synchronized (refreshLock) {
            reader.close();
        }
    }
}
