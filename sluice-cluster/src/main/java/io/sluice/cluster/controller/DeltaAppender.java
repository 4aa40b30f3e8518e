package io.sluice.cluster.controller;

import io.sluice.cluster.zk.ZkPaths;
import java.util.Arrays;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends a delta to the delta log exactly once, even when the reply to the write is lost and the ZooKeeper client
 * sends the write again after reconnecting (it does so on connection loss, not knowing whether the first one was
 * applied). Each append also sets the data of the state znode ({@link ZkPaths#STATE}) at the znode version the last
 * append left, in the same multi: a write sent again after the first was applied fails on that version instead of
 * creating a second delta with the same {@code prevSeq} (which readers could not apply: its {@code prevSeq} is not the
 * seq of the delta before it). The append then finds the delta it did write, after the previous one with the same
 * bytes, and takes its seq; when there is none (the version moved for another reason) it writes again.
 *
 * <p>Not thread-safe; owned by the controller thread through {@link StatePublisher}.
 */
final class DeltaAppender {
    private static final Logger LOG = LoggerFactory.getLogger(DeltaAppender.class);
    private static final int UNKNOWN = -1;
    private static final int ATTEMPTS = 3;
    /** Index of the version-guarded update in the multi {@link FencedWriter} sends (after its epoch check). */
    private static final int GUARD_INDEX_IN_MULTI = 1;

    /** Commits ops under the controller epoch, as {@link FencedWriter#commit} does. */
    interface Committer {
        List<CuratorTransactionResult> commit(String what, List<CuratorOp> ops, long dataBytes) throws Exception;
    }

    private final CuratorFramework client;
    private final int brokerId;
    /** The state znode's data version the last append left, {@link #UNKNOWN} until read under this epoch. */
    private int stateVersion = UNKNOWN;

    DeltaAppender(CuratorFramework client, int brokerId) {
        this.client = client;
        this.brokerId = brokerId;
    }

    /** Forgets the state znode's version: a new epoch reads it again before its first append. */
    void reset() {
        stateVersion = UNKNOWN;
    }

    /**
     * Writes {@code bytes} as the delta after {@code lastSeq} (the seq of the last delta written or loaded).
     *
     * @return the new delta's seq
     */
    long append(Committer committer, byte[] bytes, long lastSeq) throws Exception {
        for (int attempt = 1; ; attempt++) {
            if (stateVersion == UNKNOWN) {
                stateVersion = currentStateVersion();
            }
            List<CuratorOp> ops = List.of(
                    client.transactionOp().setData().withVersion(stateVersion).forPath(ZkPaths.STATE, new byte[0]),
                    client.transactionOp()
                            .create()
                            .withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                            .forPath(ZkPaths.STATE + "/" + ZkPaths.DELTA_PREFIX, bytes));
            try {
                List<CuratorTransactionResult> r = committer.commit("delta", ops, bytes.length);
                stateVersion = r.get(0).getResultStat().getVersion();
                return seqOf(r.get(1).getResultPath());
            } catch (KeeperException e) {
                if (!guardFailed(e)) {
                    throw e;
                }
                int version = currentStateVersion();
                long written = findWritten(bytes, lastSeq);
                stateVersion = version;
                if (written >= 0) {
                    LOG.info(
                            "controller {}: delta {} was written though the reply was lost; not writing it again",
                            brokerId,
                            written);
                    return written;
                }
                if (attempt == ATTEMPTS) {
                    throw e;
                }
                LOG.warn(
                        "controller {}: {} changed outside this controller's deltas; writing the delta again",
                        brokerId,
                        ZkPaths.STATE);
            }
        }
    }

    private int currentStateVersion() throws Exception {
        Stat stat = client.checkExists().forPath(ZkPaths.STATE);
        if (stat == null) {
            throw KeeperException.create(KeeperException.Code.NONODE, ZkPaths.STATE);
        }
        return stat.getVersion();
    }

    /** The seq of the delta after {@code lastSeq} holding exactly {@code bytes}, -1 when there is none. */
    private long findWritten(byte[] bytes, long lastSeq) throws Exception {
        long[] seqs = client.getChildren().forPath(ZkPaths.STATE).stream()
                .mapToLong(ZkPaths::deltaSeq)
                .filter(seq -> seq > lastSeq)
                .sorted()
                .toArray();
        for (long seq : seqs) {
            try {
                if (Arrays.equals(bytes, client.getData().forPath(ZkPaths.STATE + "/" + ZkPaths.deltaName(seq)))) {
                    return seq;
                }
            } catch (KeeperException.NoNodeException e) {
                // pruned meanwhile: not the one just written
            }
        }
        return -1;
    }

    private static boolean guardFailed(KeeperException e) {
        List<OpResult> results = e.getResults();
        return results != null
                && results.size() > GUARD_INDEX_IN_MULTI
                && results.get(GUARD_INDEX_IN_MULTI) instanceof OpResult.ErrorResult err
                && err.getErr() == KeeperException.Code.BADVERSION.intValue();
    }

    private static long seqOf(String path) {
        return ZkPaths.deltaSeq(path.substring(path.lastIndexOf('/') + 1));
    }
}
