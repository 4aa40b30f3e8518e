package io.sluice.cluster.state;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.SnapshotManifest;
import io.sluice.cluster.state.wire.SnapshotManifestDescriptor;
import io.sluice.cluster.state.wire.SnapshotRecord;
import io.sluice.cluster.state.wire.StateSerializer;
import io.sluice.cluster.zk.ZkPaths;
import io.sluice.codec.error.CodecException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.KeeperException;

/**
 * Reads the cluster state from ZooKeeper: the head manifest, a snapshot's parts, and the delta log, optionally leaving
 * a watch. Missing znodes read as "absent" where that is a normal race (a delta folded away), and as
 * {@link CorruptStateException} where the data promised them (a part the manifest lists).
 *
 * <p>Reads asked together ({@link #readHeadAndDeltas}, {@link DeltaReads}, a snapshot's parts) go out back to back on
 * the session's connection and are answered in order, so they wait for ZooKeeper once instead of once each. Their
 * answers arrive on the ZooKeeper client's event thread, so they must not be called from it (a watcher or a
 * background callback): they would wait for answers queued behind themselves until the answer timeout.
 *
 * <p>Not thread-safe; one per follower or controller (it owns a {@link StateSerializer}).
 */
public final class StateReader implements AutoCloseable {
    /**
     * Reads of a znode that was missing and then present at once; beyond that it is being created and deleted over
     * and over, and the exists watch left behind brings the reader back.
     */
    private static final int CREATE_RACE_ATTEMPTS = 3;
    /**
     * Znodes asked of ZooKeeper at once (deltas, snapshot parts): one wait for the lot instead of one per znode, while
     * a long list or a forged part count does not put many reads in flight at a time.
     */
    private static final int READ_TOGETHER = 32;

    private final CuratorFramework client;
    private final StateSerializer serializer;
    /** The longest wait for the answers to reads asked together: the session would have expired by then. */
    private final long answerTimeoutMs;

    private long bytesRead;
    /** The delta read ahead by the last {@link #readHeadAndDeltas(CuratorWatcher, long)} (-1, null: none). */
    private long readAheadSeq = -1;

    private byte[] readAhead;
    private long deltasReadAhead;

    public StateReader(CuratorFramework client, ClusterConfig config) {
        this.client = client;
        this.answerTimeoutMs =
                config.sessionTimeout().toMillis() + config.connectionTimeout().toMillis();
        this.serializer = new StateSerializer(
                config.compression(), config.partBytes(), config.maxSnapshotParts(), config.maxStateBytes());
    }

    /** The head manifest, or null when no snapshot was ever written. */
    public SnapshotManifest readHead(CuratorWatcher watcher) throws Exception {
        byte[] bytes = readOrWatchCreation(
                ZkPaths.STATE_HEAD,
                watcher,
                () -> watcher == null
                        ? client.getData().forPath(ZkPaths.STATE_HEAD)
                        : client.getData().usingWatcher(watcher).forPath(ZkPaths.STATE_HEAD));
        return bytes == null ? null : decodeHead(bytes);
    }

    /** The head manifest and the delta log, in a {@link HeadAndDeltas}. */
    public record HeadAndDeltas(SnapshotManifest head, long[] deltas) {}

    /**
     * {@link #readHead} and {@link #listDeltas} with the same watcher, both asked before either answer is awaited:
     * the head's watch is left by an exists call asked with them, so a head not written yet costs no further round.
     * Where the state's znode itself is missing (nothing written yet) the list is read again as its own method does
     * it, leaving the watch for the znode's creation.
     */
    public HeadAndDeltas readHeadAndDeltas(CuratorWatcher watcher) throws Exception {
        return readHeadAndDeltas(watcher, -1);
    }

    /**
     * {@link #readHeadAndDeltas(CuratorWatcher)} that also asks, in the same round, for delta {@code likelyNext}
     * (without a watch): a follower at seq {@code n} asks for {@code n + 1}, the next delta's seq unless a snapshot was
     * written or deltas were pruned in between. When the list holds that delta, the next {@link DeltaReads} of this
     * reader answers it from this read instead of asking ZooKeeper again, so a follower one delta behind waits for
     * ZooKeeper once instead of twice. A negative {@code likelyNext} asks for nothing more.
     */
    public HeadAndDeltas readHeadAndDeltas(CuratorWatcher watcher, long likelyNext) throws Exception {
        Objects.requireNonNull(watcher, "watcher");
        readAheadSeq = -1;
        readAhead = null;
        CompletableFuture<CuratorEvent> headWatch = new CompletableFuture<>();
        CompletableFuture<CuratorEvent> head = new CompletableFuture<>();
        CompletableFuture<CuratorEvent> children = new CompletableFuture<>();
        // an exists watch, unlike a data watch, stays on a head not written yet (a young cluster has none until its
        // first snapshot) and fires on its creation, change or deletion: a missing head costs no second round
        client.checkExists()
                .usingWatcher(watcher)
                .inBackground((c, event) -> headWatch.complete(event))
                .forPath(ZkPaths.STATE_HEAD);
        client.getData().inBackground((c, event) -> head.complete(event)).forPath(ZkPaths.STATE_HEAD);
        client.getChildren()
                .usingWatcher(watcher)
                .inBackground((c, event) -> children.complete(event))
                .forPath(ZkPaths.STATE);
        CompletableFuture<CuratorEvent> next = null;
        if (likelyNext >= 0) {
            CompletableFuture<CuratorEvent> read = new CompletableFuture<>();
            client.getData().inBackground((c, event) -> read.complete(event)).forPath(deltaPath(likelyNext));
            next = read;
        }
        answer(headWatch, ZkPaths.STATE_HEAD);
        CuratorEvent headRead = answer(head, ZkPaths.STATE_HEAD);
        CuratorEvent listRead = answer(children, ZkPaths.STATE);
        CuratorEvent nextRead = next == null ? null : answer(next, deltaPath(likelyNext));
        if (nextRead != null) {
            readAheadSeq = likelyNext;
            readAhead = nextRead.getData();
        }
        SnapshotManifest manifest = headRead == null ? null : decodeHead(headRead.getData());
        long[] deltas = listRead == null ? listDeltas(watcher) : deltaSeqs(listRead.getChildren());
        return new HeadAndDeltas(manifest, deltas);
    }

    /** Deltas a {@link DeltaReads} took from the read ahead of {@link #readHeadAndDeltas(CuratorWatcher, long)}. */
    public long deltasReadAhead() {
        return deltasReadAhead;
    }

    private SnapshotManifest decodeHead(byte[] bytes) {
        bytesRead += bytes.length;
        try {
            return SnapshotManifestDescriptor.decode(bytes);
        } catch (CodecException e) {
            throw new CorruptStateException(ZkPaths.STATE_HEAD + ": " + e.getMessage(), e);
        }
    }

    /** The manifest kept inside snapshot {@code id}'s directory. */
    public SnapshotManifest readManifest(long snapshotId) throws Exception {
        String path = ZkPaths.snapshotManifest(snapshotId);
        byte[] bytes;
        try {
            bytes = client.getData().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            throw new CorruptStateException(path + ": missing");
        }
        bytesRead += bytes.length;
        try {
            return SnapshotManifestDescriptor.decode(bytes);
        } catch (CodecException e) {
            throw new CorruptStateException(path + ": " + e.getMessage(), e);
        }
    }

    /** Reads, verifies and decodes the snapshot {@code manifest} describes. */
    public ClusterState readSnapshot(SnapshotManifest manifest) throws Exception {
        if (manifest.partCount() < 1) {
            throw new CorruptStateException(
                    "snapshot " + manifest.snapshotId() + ": manifest declares " + manifest.partCount() + " parts");
        }
        List<byte[]> parts = new ArrayList<>(Math.min(manifest.partCount(), READ_TOGETHER));
        String[] paths = new String[Math.min(manifest.partCount(), READ_TOGETHER)];
        for (int from = 0; from < manifest.partCount(); from += paths.length) {
            int count = Math.min(paths.length, manifest.partCount() - from);
            for (int i = 0; i < count; i++) {
                paths[i] = ZkPaths.snapshotPart(manifest.snapshotId(), from + i);
            }
            byte[][] read = readTogether(paths, count);
            for (int i = 0; i < count; i++) {
                if (read[i] == null) {
                    throw new CorruptStateException(
                            paths[i] + ": missing, manifest declares " + manifest.partCount() + " parts");
                }
                bytesRead += read[i].length;
                parts.add(read[i]);
            }
        }
        SnapshotRecord record = serializer.decodeSnapshot(manifest, parts);
        if (record.lastDeltaSeq != manifest.lastDeltaSeq() || record.controllerEpoch != manifest.controllerEpoch()) {
            throw new CorruptStateException("snapshot " + manifest.snapshotId() + ": content is at seq "
                    + record.lastDeltaSeq + " epoch " + record.controllerEpoch + ", manifest says seq "
                    + manifest.lastDeltaSeq() + " epoch " + manifest.controllerEpoch());
        }
        try {
            return ClusterState.fromSnapshot(record);
        } catch (CodecException | IllegalArgumentException e) {
            throw new CorruptStateException("snapshot " + manifest.snapshotId() + ": " + e.getMessage(), e);
        }
    }

    /** Sequence numbers of the deltas present, ascending. */
    public long[] listDeltas(CuratorWatcher watcher) throws Exception {
        List<String> children = readOrWatchCreation(
                ZkPaths.STATE,
                watcher,
                () -> watcher == null
                        ? client.getChildren().forPath(ZkPaths.STATE)
                        : client.getChildren().usingWatcher(watcher).forPath(ZkPaths.STATE));
        return children == null ? new long[0] : deltaSeqs(children);
    }

    private static long[] deltaSeqs(List<String> children) {
        long[] seqs = new long[children.size()];
        int n = 0;
        for (String c : children) {
            long seq = ZkPaths.deltaSeq(c);
            if (seq >= 0) {
                seqs[n++] = seq;
            }
        }
        long[] result = Arrays.copyOf(seqs, n);
        Arrays.sort(result);
        return result;
    }

    /**
     * Runs {@code read} on {@code path}; null when the znode is missing, after leaving an exists watch for its
     * creation. A znode created between the read and the exists call is read again: the exists watch would only see
     * its next change (and, on the state directory, never the deltas added under it).
     */
    private <T> T readOrWatchCreation(String path, CuratorWatcher watcher, Callable<T> read) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return read.call();
            } catch (KeeperException.NoNodeException e) {
                if (watcher == null
                        || client.checkExists().usingWatcher(watcher).forPath(path) == null
                        || attempt == CREATE_RACE_ATTEMPTS) {
                    return null;
                }
            }
        }
    }

    /** Snapshot ids present, ascending. */
    public long[] listSnapshots() throws Exception {
        List<String> children;
        try {
            children = client.getChildren().forPath(ZkPaths.STATE);
        } catch (KeeperException.NoNodeException e) {
            return new long[0];
        }
        return children.stream()
                .mapToLong(ZkPaths::snapshotId)
                .filter(id -> id >= 0)
                .sorted()
                .toArray();
    }

    /** Delta {@code seq}, or null when it is gone (folded into a snapshot and deleted). */
    public DeltaRecord readDelta(long seq) throws Exception {
        byte[] bytes;
        try {
            bytes = client.getData().forPath(deltaPath(seq));
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
        return decodeDelta(seq, bytes);
    }

    /** Reads of the deltas {@code seqs} lists ({@link #listDeltas}), in windows asked together. */
    public DeltaReads deltaReads(long[] seqs) {
        return new DeltaReads(seqs);
    }

    /**
     * The deltas of one list, read in windows of up to {@link #READ_TOGETHER}: the delta asked for and those
     * after it are all asked of ZooKeeper before any answer is awaited (one wait for the window instead of one per
     * delta), and each is decoded only when it is asked for. Not thread-safe; one per walk over the list, on the
     * reader's thread.
     */
    public final class DeltaReads {
        private final long[] seqs;
        private byte[][] window = new byte[0][];
        private int windowFrom;
        private byte[] lastBytes;

        private DeltaReads(long[] seqs) {
            this.seqs = seqs;
        }

        /** Delta {@code seqs[index]}, or null when it is gone (folded into a snapshot and deleted). */
        public DeltaRecord read(int index) throws Exception {
            Objects.checkIndex(index, seqs.length);
            if (seqs[index] == readAheadSeq) {
                byte[] bytes = readAhead;
                readAheadSeq = -1;
                readAhead = null;
                deltasReadAhead++;
                lastBytes = bytes;
                return decodeDelta(seqs[index], bytes);
            }
            if (index < windowFrom || index >= windowFrom + window.length) {
                int count = Math.min(READ_TOGETHER, seqs.length - index);
                String[] paths = new String[count];
                for (int i = 0; i < count; i++) {
                    paths[i] = deltaPath(seqs[index + i]);
                }
                windowFrom = index;
                window = readTogether(paths, count);
            }
            lastBytes = window[index - windowFrom];
            return decodeDelta(seqs[index], lastBytes);
        }

        /** The znode bytes of the delta {@link #read} last returned (null when it was gone). */
        public byte[] lastReadBytes() {
            return lastBytes;
        }
    }

    /**
     * The data of {@code paths[0]} to {@code paths[count - 1]}, all asked before any answer is awaited; an entry is
     * null where its znode is missing.
     */
    private byte[][] readTogether(String[] paths, int count) throws Exception {
        List<CompletableFuture<CuratorEvent>> reads = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            CompletableFuture<CuratorEvent> read = new CompletableFuture<>();
            client.getData().inBackground((c, event) -> read.complete(event)).forPath(paths[i]);
            reads.add(read);
        }
        byte[][] data = new byte[count][];
        for (int i = 0; i < count; i++) {
            CuratorEvent event = answer(reads.get(i), paths[i]);
            data[i] = event == null ? null : event.getData();
        }
        return data;
    }

    private DeltaRecord decodeDelta(long seq, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        bytesRead += bytes.length;
        return serializer.decodeDelta(seq, bytes);
    }

    private static String deltaPath(long seq) {
        return ZkPaths.STATE + "/" + ZkPaths.deltaName(seq);
    }

    /**
     * The answer to a read asked with a background callback: its event, or null when the znode was missing.
     *
     * @throws KeeperException any other error ZooKeeper answered with
     * @throws TimeoutException when no answer came within a session timeout plus a connection timeout
     */
    private CuratorEvent answer(CompletableFuture<CuratorEvent> read, String path) throws Exception {
        CuratorEvent event;
        try {
            event = read.get(answerTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("background read of " + path + " failed", e.getCause());
        } catch (TimeoutException e) {
            throw new TimeoutException(
                    "ZooKeeper did not answer the read of " + path + " in " + answerTimeoutMs + " ms");
        }
        KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
        if (code == KeeperException.Code.NONODE) {
            return null;
        }
        if (code != KeeperException.Code.OK) {
            throw KeeperException.create(code, path);
        }
        return event;
    }

    /** Bytes of znode data read so far. */
    public long bytesRead() {
        return bytesRead;
    }

    StateSerializer serializer() {
        return serializer;
    }

    @Override
    public void close() {
        serializer.close();
    }
}
