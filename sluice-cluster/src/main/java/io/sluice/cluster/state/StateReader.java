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
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.KeeperException;

/**
 * Reads the cluster state from ZooKeeper: the head manifest, a snapshot's parts, and the delta log, optionally leaving
 * a watch. Missing znodes read as "absent" where that is a normal race (a delta folded away), and as
 * {@link CorruptStateException} where the data promised them (a part the manifest lists).
 *
 * <p>Not thread-safe; one per follower or controller (it owns a {@link StateSerializer}).
 */
public final class StateReader implements AutoCloseable {
    /**
     * Reads of a znode that was missing and then present at once; beyond that it is being created and deleted over
     * and over, and the exists watch left behind brings the reader back.
     */
    private static final int CREATE_RACE_ATTEMPTS = 3;

    private final CuratorFramework client;
    private final StateSerializer serializer;
    private long bytesRead;

    public StateReader(CuratorFramework client, ClusterConfig config) {
        this.client = client;
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
        if (bytes == null) {
            return null;
        }
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
        List<byte[]> parts = new ArrayList<>(Math.min(manifest.partCount(), 64));
        for (int i = 0; i < manifest.partCount(); i++) {
            String path = ZkPaths.snapshotPart(manifest.snapshotId(), i);
            try {
                byte[] p = client.getData().forPath(path);
                bytesRead += p.length;
                parts.add(p);
            } catch (KeeperException.NoNodeException e) {
                throw new CorruptStateException(
                        path + ": missing, manifest declares " + manifest.partCount() + " parts");
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
        if (children == null) {
            return new long[0];
        }
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
            bytes = client.getData().forPath(ZkPaths.STATE + "/" + ZkPaths.deltaName(seq));
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
        bytesRead += bytes.length;
        return serializer.decodeDelta(seq, bytes);
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
