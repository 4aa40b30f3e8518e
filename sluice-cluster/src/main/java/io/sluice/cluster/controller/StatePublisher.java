package io.sluice.cluster.controller;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.CorruptStateException;
import io.sluice.cluster.state.StateReader;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.SnapshotManifest;
import io.sluice.cluster.state.wire.SnapshotManifestDescriptor;
import io.sluice.cluster.state.wire.StateSerializer;
import io.sluice.cluster.zk.ZkPaths;
import io.sluice.codec.part.PartDescriptor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the controller's state to ZooKeeper, every write fenced by the controller epoch: each change as one small
 * delta (or, when too large for a znode, a marker plus a snapshot), folds deltas into a new snapshot as
 * {@link SnapshotPolicy} decides, prunes what no reader needs any more, and watches its own snapshot's znodes to
 * rewrite a fresh snapshot when one is changed or removed behind its back.
 *
 * <p>Not thread-safe; owned by the controller thread (snapshot watch events are handed to it through the
 * controller's executor). {@link #state()} may be read from any thread.
 */
final class StatePublisher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatePublisher.class);
    private static final int DELETES_PER_TRANSACTION = 100;

    /** Told of every delta once it is published. */
    interface AppliedListener {
        void applied(ClusterState before, DeltaRecord delta, ClusterState after);
    }

    private final CuratorFramework client;
    private final int brokerId;
    private final ClusterConfig config;
    private final ControllerStats stats;
    private final StateSerializer serializer;
    private final StateReader reader;
    private final SnapshotPolicy snapshotPolicy;
    private final Consumer<Runnable> controllerThread;
    private final Consumer<ControllerFencedException> onFenced;
    private final AppliedListener listener;
    private final DeltaAppender appender;
    private final CuratorWatcher snapshotWatcher = this::onSnapshotEvent;

    private volatile PublicationObserver observer = PublicationObserver.NONE;
    private volatile FencedWriter writer;
    private volatile ClusterState state;
    private SnapshotManifest head;
    private SnapshotManifest previous;
    private boolean headExists;
    private long nextSnapshotId;
    private int deltasSinceSnapshot;
    private long deltaBytesSinceSnapshot;
    private long lastSnapshotBytes;

    /**
     * @param controllerThread runs a task on the controller thread
     * @param onFenced         called on the controller thread when a write found a newer controller
     */
    StatePublisher(
            CuratorFramework client,
            int brokerId,
            ClusterConfig config,
            StateReader reader,
            ControllerStats stats,
            Consumer<Runnable> controllerThread,
            Consumer<ControllerFencedException> onFenced,
            AppliedListener listener) {
        this.client = client;
        this.brokerId = brokerId;
        this.config = config;
        this.reader = reader;
        this.stats = stats;
        this.controllerThread = controllerThread;
        this.onFenced = onFenced;
        this.listener = listener;
        this.appender = new DeltaAppender(client, brokerId);
        this.serializer = new StateSerializer(
                config.compression(), config.partBytes(), config.maxSnapshotParts(), config.maxStateBytes());
        this.snapshotPolicy = SnapshotPolicy.of(config.deltasPerSnapshot(), config.partBytes());
    }

    /** Starts publishing under {@code w} on top of what take-over loaded. */
    void start(FencedWriter w, StateLoader.Loaded loaded) {
        writer = w;
        appender.reset();
        state = loaded.state();
        head = loaded.head();
        previous = null;
        headExists = loaded.headExists();
        nextSnapshotId = loaded.nextSnapshotId();
        deltasSinceSnapshot = loaded.deltasSinceSnapshot();
        deltaBytesSinceSnapshot = loaded.deltaBytesSinceSnapshot();
        lastSnapshotBytes = head == null ? 0 : head.totalLength();
    }

    /** Stops publishing (resigned or fenced): every later write fails as fenced. */
    void stop() {
        writer = null;
        state = null;
    }

    /** The state as last published, null when stopped. */
    ClusterState state() {
        return state;
    }

    /** The newest snapshot written or loaded, null when none. */
    SnapshotManifest head() {
        return head;
    }

    SnapshotPolicy snapshotPolicy() {
        return snapshotPolicy;
    }

    /** Sets the one observer of completed publications; null observes nothing. */
    void observeWith(PublicationObserver publications) {
        observer = publications == null ? PublicationObserver.NONE : publications;
    }

    private List<CuratorTransactionResult> commit(String what, List<CuratorOp> ops, long bytes) throws Exception {
        FencedWriter w = writer;
        if (w == null) {
            throw new ControllerFencedException(-1, -1, what + " after resignation");
        }
        long started = System.nanoTime();
        List<CuratorTransactionResult> r = w.commit(what, ops, bytes);
        if (LOG.isDebugEnabled()) {
            LOG.debug(
                    "controller {}: {} ({} operations, {} bytes) committed in {} us",
                    brokerId,
                    what,
                    ops.size(),
                    bytes,
                    (System.nanoTime() - started) / 1000);
        }
        stats.transactions.incrementAndGet();
        stats.operations.addAndGet(ops.size());
        stats.bytesWritten.addAndGet(bytes);
        return r;
    }

    /** Publishes {@code delta} on top of the current state: one znode, or a marker plus a snapshot if too large. */
    void publish(DeltaRecord delta) throws Exception {
        publish(delta, null);
    }

    /**
     * Publishes {@code delta}; {@code onWritten} (may be null) runs once it is written, before {@link #state()} shows
     * it, so counters a reader checks against the state are never behind it.
     */
    void publish(DeltaRecord delta, Runnable onWritten) throws Exception {
        FencedWriter w = writer;
        if (w == null) {
            throw new ControllerFencedException(-1, -1, "delta after resignation");
        }
        long started = System.nanoTime();
        delta.controllerEpoch = w.epoch();
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
        long seq = appender.append(this::commit, bytes, delta.prevSeq);
        if (onWritten != null) {
            onWritten.run();
        }
        stats.deltas.incrementAndGet(); // before the state shows the delta, as onWritten's counters
        ClusterState before = state;
        state = before.apply(delta, seq);
        listener.applied(before, delta, state);
        observer.published(PublicationObserver.Kind.DELTA, bytes.length, System.nanoTime() - started);
        deltasSinceSnapshot++;
        deltaBytesSinceSnapshot += bytes.length;
        if (marker || snapshotPolicy.shouldFold(deltasSinceSnapshot, deltaBytesSinceSnapshot, lastSnapshotBytes)) {
            writeSnapshot();
        }
    }

    /** Streams the state into a new snapshot, points the head at it and prunes what no reader needs any more. */
    void writeSnapshot() throws Exception {
        long started = System.nanoTime();
        long written = 0;
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
            written += parts.get(i).length;
        }
        ByteBuffer h = ByteBuffer.wrap(parts.get(0));
        SnapshotManifest manifest = new SnapshotManifest(
                id,
                writer.epoch(),
                state.appliedSeq(),
                parts.size(),
                h.getInt(PartDescriptor.TOTAL_LENGTH_OFFSET),
                h.getInt(PartDescriptor.STREAM_CRC_OFFSET),
                config.compression());
        byte[] mbytes = SnapshotManifestDescriptor.encode(manifest);
        CuratorOp headOp = headExists
                ? client.transactionOp().setData().forPath(ZkPaths.STATE_HEAD, mbytes)
                : client.transactionOp().create().forPath(ZkPaths.STATE_HEAD, mbytes);
        commit(
                "snapshot " + id + " manifest",
                List.of(client.transactionOp().create().forPath(ZkPaths.snapshotManifest(id), mbytes), headOp),
                2L * mbytes.length);
        written += 2L * mbytes.length;
        headExists = true;
        previous = head;
        head = manifest;
        deltasSinceSnapshot = 0;
        deltaBytesSinceSnapshot = 0;
        lastSnapshotBytes = enc.compressedBytes();
        stats.snapshots.incrementAndGet();
        stats.lastSnapshotParts.set(parts.size());
        stats.lastSnapshotBytes.set(enc.compressedBytes());
        observer.published(PublicationObserver.Kind.SNAPSHOT, written, System.nanoTime() - started);
        LOG.info(
                "controller {}: snapshot {} at seq {}: {} bytes state, {} compressed in {} parts",
                brokerId,
                id,
                manifest.lastDeltaSeq(),
                enc.uncompressedBytes(),
                enc.compressedBytes(),
                parts.size());
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

    void watchSnapshot() throws Exception {
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
        controllerThread.accept(() -> verifySnapshot(path));
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
                    throw new CorruptStateException(ZkPaths.STATE_HEAD + " no longer names snapshot " + h.snapshotId());
                }
                if (ours) {
                    reader.readSnapshot(h);
                }
                watchSnapshot();
            } catch (CorruptStateException e) {
                LOG.error(
                        "controller {}: published snapshot damaged ({}); writing a fresh one",
                        brokerId,
                        e.getMessage());
                stats.snapshotRepairs.incrementAndGet();
                writeSnapshot();
            }
        } catch (ControllerFencedException e) {
            onFenced.accept(e);
        } catch (Exception e) {
            LOG.warn("controller {}: snapshot check failed: {}", brokerId, e.toString());
        }
    }

    @Override
    public void close() {
        writer = null;
        serializer.close();
    }
}
