package io.sluice.cluster.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;

/**
 * Every ZooKeeper write a controller makes: one multi() whose first operation checks that {@code /controller_epoch}
 * is still at the znode version this controller set when it took the epoch. A newer controller bumps that version,
 * so a paused or partitioned former controller can change nothing: its multi fails as a whole and surfaces as
 * {@link ControllerFencedException}.
 *
 * <p>Immutable apart from counters; thread-safe.
 */
public final class FencedWriter {
    private final CuratorFramework client;
    private final String epochPath;
    private final int epoch;
    private final int epochZnodeVersion;
    private final LongAdder transactions = new LongAdder();
    private final LongAdder operations = new LongAdder();
    private final LongAdder bytes = new LongAdder();

    public FencedWriter(CuratorFramework client, String epochPath, int epoch, int epochZnodeVersion) {
        this.client = client;
        this.epochPath = epochPath;
        this.epoch = epoch;
        this.epochZnodeVersion = epochZnodeVersion;
    }

    public int epoch() {
        return epoch;
    }

    public int epochZnodeVersion() {
        return epochZnodeVersion;
    }

    /**
     * Commits {@code ops} atomically, conditional on the epoch.
     *
     * @param what      names the write in errors
     * @param dataBytes znode data bytes carried, for the counters
     * @return the results of {@code ops} (the epoch check's result left out)
     * @throws ControllerFencedException when a newer controller holds the epoch
     * @throws KeeperException           when one of {@code ops} failed for its own reason (nothing was applied)
     */
    public List<CuratorTransactionResult> commit(String what, List<CuratorOp> ops, long dataBytes) throws Exception {
        List<CuratorOp> all = new ArrayList<>(ops.size() + 1);
        all.add(client.transactionOp().check().withVersion(epochZnodeVersion).forPath(epochPath));
        all.addAll(ops);
        List<CuratorTransactionResult> results;
        try {
            results = client.transaction().forOperations(all);
        } catch (KeeperException e) {
            if (checkFailed(e)) {
                throw new ControllerFencedException(epoch, epochZnodeVersion, what);
            }
            throw e;
        }
        transactions.increment();
        operations.add(ops.size());
        bytes.add(dataBytes);
        return results.subList(1, results.size());
    }

    private static boolean checkFailed(KeeperException e) {
        List<OpResult> results = e.getResults();
        if (results == null || results.isEmpty()) {
            // The whole multi failed before per-op results (e.g. session expired): treat as fenced only if the
            // error says the epoch check could not hold.
            return e.code() == KeeperException.Code.BADVERSION
                    || e.code() == KeeperException.Code.NONODE
                    || e.code() == KeeperException.Code.SESSIONEXPIRED;
        }
        return results.get(0) instanceof OpResult.ErrorResult err && err.getErr() != 0;
    }

    /** Multi transactions committed. */
    public long transactions() {
        return transactions.sum();
    }

    /** Znode operations committed (epoch checks excluded). */
    public long operations() {
        return operations.sum();
    }

    /** Znode data bytes written. */
    public long bytesWritten() {
        return bytes.sum();
    }
}
