package io.sluice.cluster.zk;

import io.sluice.cluster.config.ClusterConfig;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A started Curator client for one {@code zookeeper.connect} value. A chroot becomes Curator's namespace, so every
 * path Sluice uses is relative to it and the chroot znode is created on first use if missing. {@link #close()}
 * closes the client, which ends the session (ephemeral registrations vanish at once).
 *
 * <p>Thread-safe (Curator's client is); one per broker process.
 */
public final class ClusterConnection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterConnection.class);
    private static final int RETRY_BASE_MILLIS = 100;
    private static final int RETRY_MAX_MILLIS = 2000;
    private static final int RETRY_MAX_TRIES = 10;

    private final ConnectString connect;
    private final CuratorFramework client;
    private final SessionStateTracker session;

    private ClusterConnection(ConnectString connect, CuratorFramework client, SessionStateTracker session) {
        this.connect = connect;
        this.client = client;
        this.session = session;
    }

    /**
     * Connects and waits for the first connection.
     *
     * @throws IOException when no ZooKeeper server answered within {@link ClusterConfig#connectionTimeout()}
     */
    public static ClusterConnection open(String zookeeperConnect, ClusterConfig config) throws IOException {
        ConnectString cs = ConnectString.parse(zookeeperConnect);
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder()
                .connectString(cs.hosts())
                .sessionTimeoutMs((int) config.sessionTimeout().toMillis())
                .connectionTimeoutMs((int) config.connectionTimeout().toMillis())
                .retryPolicy(new ExponentialBackoffRetry(RETRY_BASE_MILLIS, RETRY_MAX_TRIES, RETRY_MAX_MILLIS));
        if (cs.hasChroot()) {
            b.namespace(cs.chroot());
        }
        CuratorFramework client = b.build();
        SessionStateTracker session = SessionStateTracker.follow(client);
        client.start();
        try {
            if (!client.blockUntilConnected((int) config.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                client.close();
                throw new IOException("no ZooKeeper server of '" + zookeeperConnect + "' answered within "
                        + config.connectionTimeout());
            }
            if (cs.hasChroot()) {
                // Touch the namespace so Curator creates the chroot znode now, not on the first broker write.
                client.checkExists().forPath("/");
                client.createContainers("/");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            client.close();
            throw new IOException("interrupted while connecting to '" + zookeeperConnect + "'", e);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            client.close();
            throw new IOException("cannot prepare chroot /" + cs.chroot() + " on '" + zookeeperConnect + "'", e);
        }
        LOG.info(
                "connected to ZooKeeper {} (chroot '/{}'), session timeout {}",
                cs.hosts(),
                cs.chroot(),
                config.sessionTimeout());
        return new ClusterConnection(cs, client, session);
    }

    public CuratorFramework client() {
        return client;
    }

    /** The session's state and expirations since connecting (for metrics). */
    public SessionStateTracker session() {
        return session;
    }

    /** Whether the ZooKeeper session is connected right now. */
    public boolean isConnected() {
        return client.getZookeeperClient().isConnected();
    }

    /**
     * The sequence number of the newest cluster-state delta in ZooKeeper, -1 when none exists.
     *
     * @throws IOException when ZooKeeper cannot list the state
     */
    public long newestPublishedDeltaSeq() throws IOException {
        try {
            long newest = -1;
            for (String child : client.getChildren().forPath(ZkPaths.STATE)) {
                newest = Math.max(newest, ZkPaths.deltaSeq(child));
            }
            return newest;
        } catch (KeeperException.NoNodeException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while listing the published cluster state", e);
        } catch (Exception e) {
            throw new IOException("cannot list the published cluster state: " + e.getMessage(), e);
        }
    }

    public ConnectString connectString() {
        return connect;
    }

    @Override
    public void close() {
        client.close();
    }
}
