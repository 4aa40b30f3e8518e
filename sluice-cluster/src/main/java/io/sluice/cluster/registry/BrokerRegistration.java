package io.sluice.cluster.registry;

import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterStateException;
import io.sluice.cluster.state.wire.StateSerializer;
import io.sluice.cluster.zk.ZkPaths;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker's membership: the ephemeral znode {@code /brokers/ids/<id>} holding its {@link BrokerInfo} (id, rack,
 * endpoint bytes). A second live broker with the same id is refused with {@link DuplicateBrokerIdException}; a znode
 * with exactly our data but another session (our own previous incarnation, killed before its session timed out) is
 * waited out for up to {@code staleWait}. After a session loss the znode is re-created on reconnection.
 *
 * <p>Thread-safe; one per broker.
 */
public final class BrokerRegistration implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerRegistration.class);

    private final CuratorFramework client;
    private final BrokerInfo self;
    private final byte[] data;
    private final String path;
    private final Duration staleWait;
    private final ConnectionStateListener reconnect = this::onConnectionState;
    private volatile boolean registered;
    private volatile Exception lastError;
    /** The creation zxid of the znode this broker holds (Kafka's broker epoch); -1 before it holds one. */
    private volatile long epoch = -1;

    public BrokerRegistration(CuratorFramework client, BrokerInfo self, Duration staleWait) {
        this.client = client;
        this.self = self;
        this.data = StateSerializer.encodeBroker(self);
        this.path = ZkPaths.broker(self.id());
        this.staleWait = staleWait;
    }

    /**
     * Creates the registration znode.
     *
     * @throws DuplicateBrokerIdException when another live broker holds this id
     */
    public synchronized void register() throws Exception {
        createOrWait(System.nanoTime() + staleWait.toNanos());
        registered = true;
        client.getConnectionStateListenable().addListener(reconnect);
        LOG.info("broker {} registered at {} ({})", self.id(), path, self.endpoints());
    }

    private void createOrWait(long deadline) throws Exception {
        while (true) {
            try {
                Stat created = new Stat();
                client.create()
                        .storingStatIn(created)
                        .creatingParentContainersIfNeeded()
                        .withMode(CreateMode.EPHEMERAL)
                        .forPath(path, data);
                epoch = created.getCzxid();
                return;
            } catch (KeeperException.NodeExistsException e) {
                Stat stat = new Stat();
                byte[] holder;
                try {
                    holder = client.getData().storingStatIn(stat).forPath(path);
                } catch (KeeperException.NoNodeException gone) {
                    continue;
                }
                if (stat.getEphemeralOwner() == sessionId()) {
                    epoch = stat.getCzxid();
                    return;
                }
                if (!Arrays.equals(holder, data) || System.nanoTime() >= deadline) {
                    throw duplicate(holder, stat);
                }
                LOG.info(
                        "broker {}: {} is held by session 0x{} with our own data (an earlier session of this "
                                + "broker); waiting for it to expire",
                        self.id(),
                        path,
                        Long.toHexString(stat.getEphemeralOwner()));
                awaitDeletion(deadline);
            }
        }
    }

    private DuplicateBrokerIdException duplicate(byte[] holder, Stat stat) {
        io.sluice.codec.endpoint.Endpoint holderEndpoint;
        try {
            holderEndpoint = StateSerializer.decodeBroker(path, holder).primaryEndpoint();
        } catch (ClusterStateException bad) {
            holderEndpoint = null;
        }
        return new DuplicateBrokerIdException(self.id(), holderEndpoint, stat.getEphemeralOwner());
    }

    private void awaitDeletion(long deadlineNanos) throws Exception {
        CountDownLatch gone = new CountDownLatch(1);
        Stat s = client.checkExists()
                .usingWatcher((org.apache.curator.framework.api.CuratorWatcher) e -> gone.countDown())
                .forPath(path);
        if (s == null) {
            return;
        }
        long waitNanos = Math.max(0, deadlineNanos - System.nanoTime());
        gone.await(waitNanos, TimeUnit.NANOSECONDS);
    }

    private long sessionId() throws Exception {
        return client.getZookeeperClient().getZooKeeper().getSessionId();
    }

    private void onConnectionState(CuratorFramework c, ConnectionState state) {
        if (state != ConnectionState.RECONNECTED || !registered) {
            return;
        }
        // The old session's znode may outlive our reconnection by up to a session timeout: wait it out off the
        // connection-state thread.
        Thread t = new Thread(this::reRegister, "sluice-reregister-" + self.id());
        t.setDaemon(true);
        t.start();
    }

    private synchronized void reRegister() {
        if (!registered) {
            return;
        }
        try {
            Stat stat = client.checkExists().forPath(path);
            if (stat != null && stat.getEphemeralOwner() == sessionId()) {
                return;
            }
            createOrWait(System.nanoTime() + 2 * staleWait.toNanos());
            LOG.info("broker {} re-registered at {} after session loss", self.id(), path);
            lastError = null;
        } catch (Exception e) {
            lastError = e;
            LOG.error("broker {} cannot re-register: {}", self.id(), e.getMessage());
        }
    }

    /**
     * This broker's epoch: the creation zxid of its registration znode, new with every registration (so a later
     * incarnation's is higher), -1 before the first. Requests to the controller carry it, so a late one from an earlier
     * incarnation is told apart (Kafka's broker epoch).
     */
    public long epoch() {
        return epoch;
    }

    /** The last re-registration failure, null when registered. */
    public Exception lastError() {
        return lastError;
    }

    public BrokerInfo self() {
        return self;
    }

    /** Deletes the registration znode (a clean shutdown: the controller sees the broker leave at once). */
    @Override
    public void close() {
        client.getConnectionStateListenable().removeListener(reconnect);
        if (!registered) {
            return;
        }
        registered = false;
        synchronized (this) {
            deleteIfOurs();
        }
    }

    private void deleteIfOurs() {
        try {
            Stat stat = client.checkExists().forPath(path);
            if (stat != null && stat.getEphemeralOwner() == sessionId()) {
                client.delete().withVersion(stat.getVersion()).forPath(path);
            }
        } catch (Exception e) {
            LOG.warn("broker {}: could not delete {} on close: {}", self.id(), path, e.toString());
        }
    }
}
