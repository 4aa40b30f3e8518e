package io.sluice.broker.cluster;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.controller.PublicationObserver;
import io.sluice.cluster.identity.BrokerIdentity;
import io.sluice.cluster.node.ClusterIdStore;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.node.ProducerIdBlocks;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.zk.ClusterConnection;
import io.sluice.cluster.zk.EmbeddedZooKeeper;
import io.sluice.cluster.zk.SessionStateTracker;
import io.sluice.codec.endpoint.Endpoint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's membership of a ZooKeeper-coordinated cluster: the embedded ZooKeeper when
 * {@code zookeeper.connect} is unset, the Curator connection, the cluster id agreed in ZooKeeper and,
 * once {@link #join} is called, the {@link ClusterNode} (registration, state follower, controller
 * candidacy). As a {@link ClusterView} it answers with the live brokers of the newest cluster state.
 *
 * <p>Thread-safe; one per broker process.
 */
public final class ClusterMembership implements ClusterView, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMembership.class);
    /** Embedded ZooKeeper data, inside the broker's metadata directory. */
    public static final String EMBEDDED_ZOOKEEPER_DIR = "zookeeper";
    /** The connect string of a running embedded ZooKeeper, for {@code sluice cluster status}. */
    public static final String EMBEDDED_CONNECT_FILE = "zookeeper.connect";
    /**
     * The listener name under which a broker registers its HTTP listener (status page, JSON, metrics) next to its
     * Kafka listener, so peers find each other's status endpoints in the cluster state.
     */
    public static final String HTTP_LISTENER_NAME = "SLUICE_HTTP";

    private static final Duration SESSION_CLOSE_WAIT = Duration.ofSeconds(5);

    private final EmbeddedZooKeeper embedded;
    private final ClusterConnection connection;
    private volatile PublicationObserver publications = PublicationObserver.NONE;
    private final ClusterConfig clusterConfig;
    private final String clusterId;
    private volatile ClusterNode node;
    private volatile BrokerNode self;
    /** This broker's advertised endpoint per listener name, the inter-broker listener first. */
    private volatile Map<String, BrokerNode> selfByListener = Map.of();

    private volatile Endpoint httpEndpoint;
    private volatile BrokersOfState brokers = new BrokersOfState(ClusterState.EMPTY, new ConcurrentHashMap<>());

    /** The live brokers of one state, per listener name (null: each broker's first endpoint), made on first use. */
    private record BrokersOfState(ClusterState state, ConcurrentHashMap<String, List<BrokerNode>> nodesByListener) {}

    private static final String FIRST_ENDPOINT = "";

    private ClusterMembership(
            EmbeddedZooKeeper embedded, ClusterConnection connection, ClusterConfig clusterConfig, String clusterId) {
        this.embedded = embedded;
        this.connection = connection;
        this.clusterConfig = clusterConfig;
        this.clusterId = clusterId;
    }

    /**
     * Connects to ZooKeeper (starting the embedded server first when {@code zookeeper.connect} is unset) and agrees
     * on the cluster id: the one in ZooKeeper, or else the configured one, the one in the log directories, or a new
     * one.
     *
     * @throws BrokerIdentity.IdentityMismatchException when the log directories or cluster.id name another cluster
     */
    public static ClusterMembership connect(BrokerConfig config, Path metadataDir) throws IOException {
        ClusterConfig clusterConfig = ClusterConfig.defaults()
                .withSessionTimeout(config.zookeeperSessionTimeout())
                .withConnectionTimeout(config.zookeeperConnectionTimeout())
                .withUncleanLeaderElectionEnable(config.uncleanLeaderElectionEnable())
                .withAutoLeaderRebalanceEnable(config.autoLeaderRebalanceEnable())
                .withLeaderImbalanceCheckInterval(config.leaderImbalanceCheckInterval())
                .withLeaderImbalancePerBrokerPercentage(config.leaderImbalancePerBrokerPercentage())
                .withControllerRetryDelay(config.controllerRetryBackoff());
        EmbeddedZooKeeper embedded = null;
        ClusterConnection connection = null;
        try {
            String connect;
            Optional<String> external = config.zookeeperConnect();
            if (external.isPresent()) {
                connect = external.get();
            } else {
                embedded = EmbeddedZooKeeper.start(
                        metadataDir.resolve(EMBEDDED_ZOOKEEPER_DIR), config.zookeeperEmbeddedPort(), 0);
                embedded.closeRestoredSessions(SESSION_CLOSE_WAIT);
                connect = embedded.connectString();
                Files.writeString(metadataDir.resolve(EMBEDDED_CONNECT_FILE), connect + "\n", StandardCharsets.UTF_8);
            }
            connection = ClusterConnection.open(connect, clusterConfig);
            String candidate = config.clusterId()
                    .or(() -> storedClusterId(config.logDirs()))
                    .orElseGet(BrokerIdentity::newClusterId);
            String agreed = ClusterIdStore.resolve(connection.client(), candidate);
            if (config.clusterId().isPresent() && !config.clusterId().get().equals(agreed)) {
                throw new BrokerIdentity.IdentityMismatchException("cluster.id is "
                        + config.clusterId().get() + " but ZooKeeper '" + connect + "' belongs to cluster " + agreed);
            }
            return new ClusterMembership(embedded, connection, clusterConfig, agreed);
        } catch (IOException | RuntimeException e) {
            closeQuietly(connection, embedded);
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeQuietly(connection, embedded);
            throw new IOException("interrupted while connecting to ZooKeeper", e);
        } catch (Exception e) {
            closeQuietly(connection, embedded);
            throw new IOException("cannot read or record the cluster id in ZooKeeper: " + e.getMessage(), e);
        }
    }

    private static Optional<String> storedClusterId(List<Path> logDirs) {
        try {
            return BrokerIdentity.storedClusterId(logDirs);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Sets the one (PLAINTEXT) endpoint this broker registers and reports as itself; call once it is bound. */
    public void advertise(BrokerNode advertised) {
        advertise(Map.of("PLAINTEXT", advertised));
    }

    /**
     * Sets the endpoints this broker registers, one per advertised listener name, in order; the first is the
     * inter-broker listener (other brokers reach this one at each broker's first endpoint) and reports this broker as
     * itself. Call once the listeners are bound.
     */
    public void advertise(Map<String, BrokerNode> byListener) {
        this.selfByListener = Collections.unmodifiableMap(new LinkedHashMap<>(byListener));
        this.self = byListener.values().iterator().next();
    }

    /** Registers {@code endpoint} as this broker's HTTP listener ({@link #HTTP_LISTENER_NAME}) at {@link #join}. */
    public void advertiseHttp(Endpoint endpoint) {
        this.httpEndpoint = endpoint;
    }

    /**
     * Registers this broker (the {@link #advertise advertised} endpoint), follows the cluster state and runs for controller; returns once the state lists this
     * broker as live (at most the connection plus session timeout: a registration left by this broker's previous
     * process may have to expire first).
     *
     * @throws io.sluice.cluster.registry.DuplicateBrokerIdException when another live broker has this id
     */
    public void join() throws IOException {
        BrokerNode advertised = self;
        if (advertised == null) {
            throw new IllegalStateException("advertise() the broker's endpoint before joining");
        }
        List<String> names = new ArrayList<>();
        List<Endpoint> endpoints = new ArrayList<>();
        selfByListener.forEach((name, node) -> {
            names.add(name);
            endpoints.add(Endpoint.of(node.host(), node.port()));
        });
        Endpoint http = httpEndpoint;
        if (http != null) {
            // after the Kafka listeners: peers reach this broker at its first endpoint, the inter-broker one
            names.add(HTTP_LISTENER_NAME);
            endpoints.add(http);
        }
        BrokerInfo info =
                new BrokerInfo(advertised.id(), advertised.rack() == null ? "" : advertised.rack(), names, endpoints);
        ClusterNode started = new ClusterNode(connection.client(), info, clusterConfig, true);
        if (started.controller() != null) {
            started.controller().observePublications(publications);
        }
        try {
            started.start();
        } catch (IOException | RuntimeException e) {
            started.close();
            throw e;
        } catch (Exception e) {
            started.close();
            throw new IOException("broker " + advertised.id() + " cannot join the cluster: " + e.getMessage(), e);
        }
        this.node = started;
        long newestAtRegistration = connection.newestPublishedDeltaSeq();
        long deadline = System.nanoTime()
                + clusterConfig
                        .connectionTimeout()
                        .plus(clusterConfig.sessionTimeout())
                        .toNanos();
        // A state read before our registration may still list this broker from its previous run: wait for one that
        // includes every change published before we registered, with this run's registration in it.
        while (!(started.current().appliedSeq() >= newestAtRegistration
                && info.equals(started.current().brokers().get(advertised.id())))) {
            if (System.nanoTime() > deadline) {
                throw new IOException("broker " + advertised.id() + " registered, but no controller published it "
                        + "within " + clusterConfig.connectionTimeout().plus(clusterConfig.sessionTimeout()));
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while joining the cluster", e);
            }
        }
        LOG.info("broker {} is live in cluster {} ({})", advertised.id(), clusterId, started.current());
    }

    /** Cluster-wide producer id reservations. */
    public ProducerIdBlocks producerIdBlocks() {
        return new ProducerIdBlocks(connection.client());
    }

    /** The joined node; null before {@link #join}. */
    public ClusterNode node() {
        return node;
    }

    /** Sets who is told of every cluster-state publication this broker makes as controller; call before {@link #join}. */
    public void observePublications(PublicationObserver observer) {
        this.publications = observer;
    }

    /** The state and expirations of this broker's ZooKeeper session. */
    public SessionStateTracker zooKeeperSession() {
        return connection.session();
    }

    /** This broker's registration epoch ({@code BrokerRegistration.epoch()}), -1 before it registered. */
    public long brokerEpoch() {
        ClusterNode current = node;
        return current == null ? -1 : current.registration().epoch();
    }

    /** Whether this broker's ZooKeeper session is connected right now. */
    public boolean isZooKeeperConnected() {
        return connection.isConnected();
    }

    public boolean isEmbedded() {
        return embedded != null;
    }

    @Override
    public String clusterId() {
        return clusterId;
    }

    @Override
    public BrokerNode self() {
        return self;
    }

    @Override
    public int controllerId() {
        ClusterNode n = node;
        return n == null ? -1 : n.controllerId();
    }

    @Override
    public List<BrokerNode> liveBrokers() {
        return liveBrokers(null);
    }

    @Override
    public List<BrokerNode> liveBrokers(String listenerName) {
        ClusterNode n = node;
        if (n == null) {
            BrokerNode mine = listenerName == null ? self : selfByListener.get(listenerName);
            return mine == null ? List.of() : List.of(mine);
        }
        ClusterState state = n.current();
        BrokersOfState cached = brokers;
        if (cached.state() != state) {
            cached = new BrokersOfState(state, new ConcurrentHashMap<>());
            brokers = cached;
        }
        return cached.nodesByListener()
                .computeIfAbsent(listenerName == null ? FIRST_ENDPOINT : listenerName, name -> toNodes(state, name));
    }

    /** Each live broker at its endpoint of {@code listenerName} ({@link #FIRST_ENDPOINT}: its first); without it, left out. */
    private static List<BrokerNode> toNodes(ClusterState state, String listenerName) {
        List<BrokerNode> nodes = new ArrayList<>(state.brokers().size());
        for (Map.Entry<Integer, BrokerInfo> e : state.brokers().entrySet()) {
            BrokerInfo info = e.getValue();
            Endpoint endpoint =
                    listenerName.equals(FIRST_ENDPOINT) ? info.primaryEndpoint() : info.endpoint(listenerName);
            if (endpoint != null) {
                nodes.add(new BrokerNode(
                        info.id(), endpoint.host(), endpoint.port(), info.hasRack() ? info.rack() : null));
            }
        }
        return List.copyOf(nodes);
    }

    /** Leaves the cluster (registration deleted at once), then closes the ZooKeeper connection and server. */
    @Override
    public void close() {
        ClusterNode n = node;
        if (n != null) {
            try {
                n.close();
            } catch (RuntimeException e) {
                LOG.warn("leaving the cluster failed: {}", e.toString());
            }
        }
        closeQuietly(connection, embedded);
    }

    private static void closeQuietly(ClusterConnection connection, EmbeddedZooKeeper embedded) {
        if (connection != null) {
            connection.close();
        }
        if (embedded != null) {
            embedded.close();
        }
    }
}
