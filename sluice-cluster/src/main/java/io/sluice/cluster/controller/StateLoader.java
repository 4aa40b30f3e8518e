package io.sluice.cluster.controller;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.ClusterStateException;
import io.sluice.cluster.state.CorruptStateException;
import io.sluice.cluster.state.StateGapException;
import io.sluice.cluster.state.StateReader;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.SnapshotManifest;
import io.sluice.cluster.zk.ZkPaths;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the published state when a controller takes over: the head snapshot, falling back to the previous one (or
 * older) if the head is corrupt, plus the deltas after it. A delta that cannot be read or applied is skipped and a
 * fresh snapshot asked for. Not thread-safe; used on the controller thread.
 */
final class StateLoader {
    private static final Logger LOG = LoggerFactory.getLogger(StateLoader.class);

    private final CuratorFramework client;
    private final int brokerId;
    private final StateReader reader;

    StateLoader(CuratorFramework client, int brokerId, StateReader reader) {
        this.client = client;
        this.brokerId = brokerId;
        this.reader = reader;
    }

    /**
     * What take-over loaded. Immutable holder.
     *
     * @param state                 the published state
     * @param head                  the snapshot it was read from, null when none was readable
     * @param headExists            whether the head manifest znode exists (written or overwritten next)
     * @param nextSnapshotId        the id the next snapshot takes
     * @param deltasSinceSnapshot   deltas applied on top of the snapshot
     * @param deltaBytesSinceSnapshot their bytes
     * @param needSnapshot          whether a fresh snapshot must be written (corrupt head, lost or unreadable delta)
     */
    record Loaded(
            ClusterState state,
            SnapshotManifest head,
            boolean headExists,
            long nextSnapshotId,
            int deltasSinceSnapshot,
            long deltaBytesSinceSnapshot,
            boolean needSnapshot) {}

    Loaded load() throws Exception {
        boolean needSnapshot = false;
        SnapshotManifest head = null;
        SnapshotManifest headManifest;
        try {
            headManifest = reader.readHead(null);
        } catch (CorruptStateException e) {
            LOG.error(
                    "controller {}: head manifest unreadable ({}); falling back to older snapshots",
                    brokerId,
                    e.getMessage());
            headManifest = null;
            needSnapshot = true;
        }
        boolean headExists = client.checkExists().forPath(ZkPaths.STATE_HEAD) != null;
        long[] snapshotIds = reader.listSnapshots();
        long nextSnapshotId = snapshotIds.length == 0 ? 1 : snapshotIds[snapshotIds.length - 1] + 1;
        ClusterState s = null;
        if (headManifest != null) {
            nextSnapshotId = Math.max(nextSnapshotId, headManifest.snapshotId() + 1);
            try {
                s = reader.readSnapshot(headManifest);
                head = headManifest;
            } catch (CorruptStateException e) {
                LOG.error(
                        "controller {}: head snapshot corrupt ({}); falling back to older snapshots",
                        brokerId,
                        e.getMessage());
                needSnapshot = true;
            }
        }
        if (s == null && (headManifest != null || needSnapshot)) {
            Fallback f = fallback(snapshotIds, headManifest);
            if (f != null) {
                s = f.state;
                head = f.manifest;
            }
        }
        if (s == null) {
            s = ClusterState.EMPTY;
        }
        int applied = 0;
        long bytesBeforeDeltas = reader.bytesRead();
        long[] deltas = reader.listDeltas(null);
        StateReader.DeltaReads reads = reader.deltaReads(deltas);
        for (int i = 0; i < deltas.length; i++) {
            long seq = deltas[i];
            if (seq <= s.appliedSeq()) {
                continue;
            }
            DeltaRecord d;
            try {
                d = reads.read(i);
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
                LOG.warn(
                        "controller {}: delta {} refers to a snapshot that was never written; skipping it",
                        brokerId,
                        seq);
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
        return new Loaded(
                s, head, headExists, nextSnapshotId, applied, reader.bytesRead() - bytesBeforeDeltas, needSnapshot);
    }

    private record Fallback(ClusterState state, SnapshotManifest manifest) {}

    private Fallback fallback(long[] snapshotIds, SnapshotManifest skip) throws Exception {
        for (int i = snapshotIds.length - 1; i >= 0; i--) {
            long id = snapshotIds[i];
            if (skip != null && id == skip.snapshotId()) {
                continue;
            }
            try {
                SnapshotManifest m = reader.readManifest(id);
                ClusterState s = reader.readSnapshot(m);
                LOG.warn("controller {}: recovered from snapshot {} at seq {}", brokerId, id, m.lastDeltaSeq());
                return new Fallback(s, m);
            } catch (ClusterStateException e) {
                LOG.error("controller {}: snapshot {} unreadable too: {}", brokerId, id, e.getMessage());
            }
        }
        LOG.error("controller {}: no readable snapshot; rebuilding from the delta log and live brokers only", brokerId);
        return null;
    }
}
