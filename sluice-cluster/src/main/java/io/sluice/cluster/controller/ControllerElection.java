package io.sluice.cluster.controller;

import io.sluice.cluster.zk.ZkPaths;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Executor;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Controller election with Curator's {@link LeaderLatch}. On winning, the new controller takes the next epoch in one
 * multi(): a check that its own latch znode still exists (it still leads in this session) and a setData of
 * {@code /controller_epoch} conditional on the version it read. The epoch is therefore strictly increasing and bound
 * to leadership; the znode version this leaves is what every later write of this controller checks
 * ({@link FencedWriter}).
 *
 * <p>Callbacks run on the executor given; thread-safe otherwise. One per broker.
 */
public final class ControllerElection implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerElection.class);
    private static final int CLAIM_ATTEMPTS = 10;
    /** Pause before the second failed attempt; each further one waits this much longer (4.5 s over all ten). */
    private static final long CLAIM_BACKOFF_MS = 100;

    /** What the election tells its owner; called on the election's executor. */
    public interface Listener {
        /** This broker leads; {@code writer} carries the new epoch. */
        void elected(FencedWriter writer);

        /** This broker no longer leads (lost the latch, the session, or closed). */
        void resigned();
    }

    private final CuratorFramework client;
    private final int brokerId;
    private final Listener listener;
    private final Executor executor;
    private LeaderLatch latch;

    public ControllerElection(CuratorFramework client, int brokerId, Listener listener, Executor executor) {
        this.client = client;
        this.brokerId = brokerId;
        this.listener = listener;
        this.executor = executor;
    }

    public synchronized void start() throws Exception {
        ensureEpochZnode(client);
        latch = joinedLatch();
    }

    /** A new latch of this broker, started: it waits its turn behind the brokers already in the election. */
    private LeaderLatch joinedLatch() throws Exception {
        LeaderLatch joined = new LeaderLatch(client, ZkPaths.CONTROLLER_ELECTION, Integer.toString(brokerId));
        joined.addListener(
                new LeaderLatchListener() {
                    @Override
                    public void isLeader() {
                        claimEpoch();
                    }

                    @Override
                    public void notLeader() {
                        LOG.info("broker {} lost controller leadership", brokerId);
                        listener.resigned();
                    }
                },
                executor);
        joined.start();
        return joined;
    }

    /** Creates {@code /controller_epoch} at epoch 0 when no controller ever ran. */
    public static void ensureEpochZnode(CuratorFramework client) throws Exception {
        try {
            client.create()
                    .creatingParentContainersIfNeeded()
                    .forPath(
                            ZkPaths.CONTROLLER_EPOCH,
                            ControllerEpochDescriptor.encode(0, ControllerEpochDescriptor.NO_CONTROLLER));
        } catch (KeeperException.NodeExistsException e) {
            // Another broker or an earlier run created it.
        }
    }

    private void claimEpoch() {
        for (int attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
            LeaderLatch l;
            synchronized (this) {
                l = latch;
            }
            if (l == null || !l.hasLeadership()) {
                return;
            }
            try {
                Stat stat = new Stat();
                byte[] data = client.getData().storingStatIn(stat).forPath(ZkPaths.CONTROLLER_EPOCH);
                int epoch = ControllerEpochDescriptor.epoch(data) + 1;
                List<CuratorTransactionResult> results = client.transaction()
                        .forOperations(
                                client.transactionOp().check().forPath(l.getOurPath()),
                                client.transactionOp()
                                        .setData()
                                        .withVersion(stat.getVersion())
                                        .forPath(
                                                ZkPaths.CONTROLLER_EPOCH,
                                                ControllerEpochDescriptor.encode(epoch, brokerId)));
                int version = results.get(1).getResultStat().getVersion();
                LOG.info("broker {} is the controller, epoch {} (epoch znode version {})", brokerId, epoch, version);
                listener.elected(new FencedWriter(client, ZkPaths.CONTROLLER_EPOCH, epoch, version));
                return;
            } catch (KeeperException.BadVersionException e) {
                LOG.warn("broker {}: /controller_epoch moved while claiming it, retrying", brokerId);
            } catch (KeeperException.NoNodeException e) {
                LOG.warn("broker {}: latch znode gone while claiming the epoch; waiting for the latch", brokerId);
                return;
            } catch (Exception e) {
                LOG.warn("broker {}: claiming the controller epoch failed: {}", brokerId, e.toString());
                if (attempt + 1 < CLAIM_ATTEMPTS && !pauseBeforeAttempt(attempt + 1)) {
                    return;
                }
            }
        }
        LOG.error(
                "broker {} leads the latch but could not claim the controller epoch in {} attempts; it leaves the"
                        + " latch and joins again, so that another broker can lead",
                brokerId,
                CLAIM_ATTEMPTS);
        rejoin();
    }

    /** Waits a little longer before each further attempt; false when interrupted (the executor is stopping). */
    private static boolean pauseBeforeAttempt(int attempt) {
        try {
            Thread.sleep(CLAIM_BACKOFF_MS * attempt);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Leaves the latch this broker leads without being the controller (it was never told {@code elected}, so nothing
     * resigns) and joins again behind the others: holding it would leave the cluster without a controller.
     */
    private synchronized void rejoin() {
        LeaderLatch held = latch;
        if (held == null) {
            return; // closed meanwhile
        }
        try {
            held.close(LeaderLatch.CloseMode.SILENT);
            latch = joinedLatch();
        } catch (Exception e) {
            latch = null;
            LOG.error("broker {} could not join the controller election again; it no longer takes part", brokerId, e);
        }
    }

    public synchronized boolean hasLeadership() {
        return latch != null && latch.hasLeadership();
    }

    @Override
    public synchronized void close() throws IOException {
        if (latch != null) {
            LeaderLatch l = latch;
            latch = null;
            l.close(LeaderLatch.CloseMode.NOTIFY_LEADER);
        }
    }
}
