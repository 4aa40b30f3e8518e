package io.sluice.broker;

import io.sluice.broker.api.GroupApis;
import io.sluice.broker.auth.AuthorizedOperations;
import io.sluice.broker.cluster.BrokerNode;
import io.sluice.broker.cluster.ClusterMembership;
import io.sluice.broker.cluster.ClusterView;
import io.sluice.broker.cluster.ControllerForwarder;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.BrokerConfigKeys;
import io.sluice.broker.config.DynamicBrokerConfig;
import io.sluice.broker.config.Listener;
import io.sluice.broker.config.ReplicaConfig;
import io.sluice.broker.config.ReplicationThrottles;
import io.sluice.broker.group.GroupCoordinator;
import io.sluice.broker.group.GroupCoordinatorConfig;
import io.sluice.broker.group.store.GroupStoreMigration;
import io.sluice.broker.group.store.ReplicatedGroupStore;
import io.sluice.broker.http.BrokerStatus;
import io.sluice.broker.interbroker.ControllerChannel;
import io.sluice.broker.metrics.BrokerGauges;
import io.sluice.broker.metrics.BrokerMetrics;
import io.sluice.broker.metrics.LogCleanerMetrics;
import io.sluice.broker.metrics.NetworkIdleMetrics;
import io.sluice.broker.move.MoveFrameDescriptor;
import io.sluice.broker.move.MovePathClasses;
import io.sluice.broker.network.ApiRegistry;
import io.sluice.broker.network.MoveSourceHandler;
import io.sluice.broker.network.NetworkServer;
import io.sluice.broker.produce.ProducerIdManager;
import io.sluice.broker.produce.ValidatorPool;
import io.sluice.broker.quota.ClientQuotas;
import io.sluice.broker.quota.QuotaMetrics;
import io.sluice.broker.replica.ControlledShutdown;
import io.sluice.broker.security.AlterUserScramCredentialsHandler;
import io.sluice.broker.security.ClientSecurity;
import io.sluice.broker.security.DescribeUserScramCredentialsHandler;
import io.sluice.broker.security.ListenerSecurity;
import io.sluice.broker.security.SaslApis;
import io.sluice.broker.security.ScramCredentialStore;
import io.sluice.broker.security.acl.AclApis;
import io.sluice.broker.security.acl.AclAuthorizer;
import io.sluice.broker.topic.OffsetsTopic;
import io.sluice.broker.topic.TopicManager;
import io.sluice.cluster.identity.BrokerIdentity;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.ClusterState;
import io.sluice.log.LogManager;
import io.sluice.log.RecoveryReport;
import io.sluice.log.clean.LogCleaner;
import io.sluice.record.validate.ValidatorConfig;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.common.protocol.ApiKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Sluice broker process: recovers its logs, then serves the Kafka protocol on its listener
 * until closed.
 *
 * <p>Thread-safe; {@link #close()} is idempotent and may be called from a shutdown hook.
 */
public final class SluiceBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SluiceBroker.class);
    /** Broker-private metadata (embedded ZooKeeper) lives here, inside the first log directory. */
    public static final String METADATA_DIR = ".sluice-metadata";
    /** Bound on leaving the cluster at shutdown: a healthy ZooKeeper needs milliseconds. */
    private static final Duration LEAVE_CLUSTER_BOUND = Duration.ofSeconds(10);
    /** The same bound while ZooKeeper is unreachable: only local threads are left to stop. */
    private static final Duration LEAVE_WITHOUT_ZOOKEEPER_BOUND = Duration.ofSeconds(2);
    /** Where the group files of the store that preceded __consumer_offsets are, inside the metadata directory. */
    public static final String LEGACY_GROUP_STORE_DIR = "consumer-offsets";
    /** How soon a new or removed partition's kafka.log:type=Log gauges appear or go; reading them costs nothing. */
    private static final Duration LOG_GAUGE_SYNC_INTERVAL = Duration.ofSeconds(5);

    private final BrokerConfig config;
    private final LogManager logs;
    private final ValidatorPool validators;
    private final List<ScheduledThreadPoolExecutor> timers;
    private final GroupCoordinator groups;
    private final NetworkServer server;
    private final ClusterMembership cluster;
    private final ControllerForwarder forwarder;
    private final RecoveryReport recovery;
    private final ReplicationParts replication;
    private final BrokerMetrics metrics;
    private final BrokerStatus status;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicBoolean closing = new AtomicBoolean();

    private SluiceBroker(
            BrokerConfig config,
            LogManager logs,
            ValidatorPool validators,
            List<ScheduledThreadPoolExecutor> timers,
            GroupCoordinator groups,
            NetworkServer server,
            ClusterMembership cluster,
            ControllerForwarder forwarder,
            RecoveryReport recovery,
            ReplicationParts replication,
            BrokerMetrics metrics,
            BrokerStatus status) {
        this.replication = replication;
        this.metrics = metrics;
        this.status = status;
        this.forwarder = forwarder;
        this.config = config;
        this.logs = logs;
        this.validators = validators;
        this.timers = timers;
        this.groups = groups;
        this.server = server;
        this.cluster = cluster;
        this.recovery = recovery;
    }

    public static SluiceBroker start(BrokerConfig config) throws IOException {
        List<Path> logDirs = config.logDirs();
        Path metadataDir = logDirs.get(0).resolve(METADATA_DIR);
        RecoveryReport recovery = new RecoveryReport();
        AtomicReference<TopicManager> topicsRef = new AtomicReference<>();
        LogManager logs =
                LogManagerFactory.create(config, topic -> topicsRef.get().logConfigOf(topic));
        // Kafka cleans below the last stable offset: the high watermark, leader or follower; nothing of a log not
        // hosted
        logs.cleanerStableOffsets(key -> {
            TopicManager hosting = topicsRef.get();
            var partition = hosting == null ? null : hosting.hostedPartition(key.topic(), key.partition());
            return partition == null ? 0L : partition.highWatermark();
        });
        StartedParts started = new StartedParts();
        BrokerMetrics metrics = new BrokerMetrics(
                ManagementFactory.getPlatformMBeanServer(),
                Boolean.parseBoolean(config.valueText(BrokerConfigKeys.METRICS_ENABLE)));
        started.add(metrics::close);
        try {
            logs.lockDirectories();
            Files.createDirectories(metadataDir);
            ClusterMembership membership = ClusterMembership.connect(config, metadataDir);
            started.add(membership::close);
            membership.observePublications(metrics.sluice());
            metrics.sluice().followZooKeeperSession(membership.zooKeeperSession());
            ProducerIdManager producerIds = new ProducerIdManager(membership.producerIdBlocks()::reserve);
            BrokerIdentity identity = BrokerIdentity.loadOrCreate(logDirs, config.brokerId(), membership.clusterId());
            DynamicBrokerConfig dynamicConfig = new DynamicBrokerConfig(config);
            dynamicConfig.addListener(live -> {
                LogCleaner cleaner = logs.cleaner();
                if (cleaner != null) {
                    cleaner.reconfigure(live.log().cleanerConfig());
                }
            });
            TopicManager topics = new TopicManager(dynamicConfig, new ReplicationThrottles(), logs);
            topicsRef.set(topics);
            ValidatorPool validators = new ValidatorPool(ValidatorConfig.defaults(), metrics.validationObserver());
            started.add(validators::close);
            ScheduledThreadPoolExecutor timer = BrokerSchedulers.daemon("sluice-delayed-fetch");
            started.add(timer::shutdownNow);
            ScheduledThreadPoolExecutor groupTimer = BrokerSchedulers.daemon("sluice-group-coordinator");
            started.add(groupTimer::shutdownNow);
            ScheduledThreadPoolExecutor groupLoader = BrokerSchedulers.daemon("sluice-group-loader");
            started.add(groupLoader::shutdownNow);

            ClusterViewHolder clusterHolder = new ClusterViewHolder();
            ControllerForwarder forwarder = new ControllerForwarder(
                    clusterHolder,
                    ClientSecurity.kafkaClientProperties(config),
                    config.controllerForwardRequestTimeoutMs());
            started.add(forwarder::close);
            ClusterMembership joined = membership;
            Supplier<ClusterNode> node = joined::node;
            // The controller channel, replica manager, moves and their throttles; the broker's periodic tasks share its
            // timer.
            ReplicationParts replication = ReplicationParts.start(config, logs, topics, node, started);
            ControllerChannel controllerChannel = replication.controllerChannel();
            ScheduledThreadPoolExecutor replicationTimer = replication.timer();
            AclAuthorizer authorizer = AclAuthorizer.of(
                    config,
                    () -> joined.node() == null
                            ? ClusterState.EMPTY
                            : joined.node().current());
            AuthorizedOperations authorized = new AuthorizedOperations();
            Supplier<Map<String, Map<String, String>>> quotaConfigs = () ->
                    (joined.node() == null ? ClusterState.EMPTY : joined.node().current()).clientQuotaConfigs();
            ClientQuotas quotas = new ClientQuotas(
                    quotaConfigs,
                    config.quotaWindowNum(),
                    TimeUnit.SECONDS.toMillis(config.quotaWindowSizeSeconds()),
                    System::currentTimeMillis,
                    new QuotaMetrics(metrics.registry(), System::currentTimeMillis));
            ApiRegistry registry = new ApiRegistry()
                    .observeWith(metrics.requestObserver())
                    .authorizeWith(authorizer)
                    .throttleWith(quotas);
            new KafkaApis(
                            config,
                            clusterHolder,
                            node,
                            topics,
                            logs,
                            dynamicConfig,
                            forwarder,
                            controllerChannel,
                            authorized,
                            timer,
                            validators,
                            metrics,
                            replication.replicas(),
                            quotas,
                            quotaConfigs,
                            replication.roomCheck(),
                            replication.moveTargets(),
                            producerIds)
                    .registerOn(registry);
            registry.registerPrivate(MoveFrameDescriptor.API_KEY, new MoveSourceHandler(replication.moveSource()));
            BrokerSchedulers.repeat(
                    replicationTimer, "expiring idle quota sensors", quotas::expireIdle, 1, TimeUnit.MINUTES);
            SaslApis.register(registry);
            AclApis.register(registry, authorizer, node, controllerChannel);
            Supplier<ClusterState> appliedState = () ->
                    joined.node() == null ? ClusterState.EMPTY : joined.node().current();
            registry.register(
                            ApiKeys.ALTER_USER_SCRAM_CREDENTIALS,
                            0,
                            0,
                            new AlterUserScramCredentialsHandler(node, controllerChannel))
                    .register(
                            ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS,
                            0,
                            0,
                            new DescribeUserScramCredentialsHandler(appliedState));
            GroupCoordinatorConfig groupConfig = config.groupCoordinatorConfig();
            int offsetsPartitions = groupConfig.offsetsTopicNumPartitions();
            ReplicatedGroupStore groupStore = new ReplicatedGroupStore(
                    p -> topics.hostedPartition(OffsetsTopic.NAME, p),
                    offsetsPartitions,
                    groupTimer,
                    groupConfig.offsetsCommitTimeoutMs(),
                    System::currentTimeMillis,
                    GroupStoreMigration.of(metadataDir.resolve(LEGACY_GROUP_STORE_DIR), offsetsPartitions));
            GroupCoordinator groups = new GroupCoordinator(
                    groupConfig, groupStore, groupTimer, groupLoader, System::currentTimeMillis, topics::exists);
            started.add(() -> closeQuietly(groups));
            topics.addRoleListener(OffsetsTopic.roleListener(groups::onBecameLeader, groups::onResigned));
            OffsetsTopic offsetsTopic = new OffsetsTopic(topics, forwarder, offsetsPartitions);
            GroupApis.register(registry, clusterHolder, offsetsTopic, groups);

            List<NetworkServer.Settings> listeners = new ArrayList<>();
            for (Listener l : config.listeners()) {
                listeners.add(new NetworkServer.Settings(
                        l.host(),
                        l.port(),
                        config.numNetworkThreads(),
                        config.numIoThreads(),
                        config.socketRequestMaxBytes(),
                        config.socketSendBufferBytes(),
                        config.socketReceiveBufferBytes(),
                        config.connectionsMaxIdleMs(),
                        ListenerSecurity.of(config, l, ScramCredentialStore.ofCluster(appliedState))));
            }
            NetworkServer server = NetworkServer.start(listeners, registry, metrics.socketServer());
            started.add(server::close);
            metrics.socketServer()
                    .register(server.listenerNames(), server.networkThreads().size());
            NetworkIdleMetrics networkIdle = new NetworkIdleMetrics(metrics.registry(), server.networkThreads());
            BrokerSchedulers.repeat(
                    replicationTimer,
                    "sampling the network threads' idle time",
                    networkIdle::sample,
                    NetworkIdleMetrics.SAMPLE_INTERVAL.toMillis(),
                    TimeUnit.MILLISECONDS);
            InetSocketAddress bound = server.boundAddress();
            Map<String, BrokerNode> advertised = AdvertisedEndpoints.of(config, server);
            String host = advertised.values().iterator().next().host();
            int port = advertised.values().iterator().next().port();
            BrokerStatus status = BrokerStatus.start(
                    config, metrics, membership, groups, topics, replication.moveTargets(), replicationTimer, host);
            started.add(status::close);
            membership.advertise(advertised);
            // Requests arriving while the broker joins and recovers get retriable errors, not a dropped connection.
            clusterHolder.set(membership);
            membership.join();
            logs.loadAll();
            if (logs.cleaner() != null) {
                LogCleanerMetrics.register(metrics.registry(), logs::cleaner, logs.logDirs());
            }
            topics.startup(membership.node(), replication.replicas(), recovery);
            groups.startup();
            topics.addDeletionListener(groups::onTopicDeleted);
            topics.addDeletionListener(metrics.topics()::removeTopic);
            BrokerGauges gauges = metrics.startGauges(topics::hostedPartitions, joined::node);
            replication.registerMetrics(metrics, gauges);
            BrokerSchedulers.repeat(
                    replicationTimer,
                    "syncing the log gauges",
                    gauges::syncLogGauges,
                    LOG_GAUGE_SYNC_INTERVAL.toMillis(),
                    TimeUnit.MILLISECONDS);
            LOG.info(
                    "Sluice broker {} of cluster {} serving on {} (advertised {}:{}; every listener {}; ZooKeeper {})",
                    config.brokerId(),
                    identity.clusterId(),
                    bound,
                    host,
                    port,
                    advertised,
                    membership.isEmbedded()
                            ? "embedded"
                            : config.zookeeperConnect().orElse(""));
            MovePathClasses.preloadInBackground();
            return new SluiceBroker(
                    config,
                    logs,
                    validators,
                    List.of(timer, groupTimer, groupLoader, replicationTimer),
                    groups,
                    server,
                    membership,
                    forwarder,
                    recovery,
                    replication,
                    metrics,
                    status);
        } catch (IOException | RuntimeException | InterruptedException e) {
            started.stopAll();
            closeQuietly(logs);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting", e);
            }
            throw e instanceof IOException io ? io : new IOException("broker failed to start: " + e.getMessage(), e);
        }
    }

    /** Where the first listener is bound. */
    public InetSocketAddress boundAddress() {
        return server.boundAddress();
    }

    /** Where the listener named {@code listenerName} is bound, null when there is none. */
    public InetSocketAddress boundAddress(String listenerName) {
        return server.boundAddress(listenerName);
    }

    /** Where the HTTP (Prometheus, status page) listener is bound; null when sluice.http.listener is unset. */
    public InetSocketAddress httpAddress() {
        return status.httpAddress();
    }

    /** Consumer lag, the HTTP listener: what this broker shows about itself. */
    public BrokerStatus status() {
        return status;
    }

    /** This broker's metrics: where further metric groups register (they show in JMX and on /metrics). */
    public BrokerMetrics metrics() {
        return metrics;
    }

    public ClusterView cluster() {
        return cluster;
    }

    /** This broker's membership of the cluster (ZooKeeper connection, cluster node). */
    public ClusterMembership membership() {
        return cluster;
    }

    /** What recovery repaired at start, one line per repair; empty after a clean shutdown. */
    public List<String> recoveryReport() {
        List<String> lines = new ArrayList<>(logs.recoveryReport().lines());
        lines.addAll(recovery.lines());
        return lines;
    }

    public void awaitShutdown() throws InterruptedException {
        stopped.await();
    }

    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            awaitQuietly();
            return;
        }
        LOG.info("Sluice broker {} shutting down", config.brokerId());
        try {
            if (ReplicaConfig.of(config).controlledShutdownEnable()) {
                new ControlledShutdown(
                                config.brokerId(),
                                ReplicaConfig.of(config),
                                replication.controllerChannel(),
                                cluster::isZooKeeperConnected,
                                cluster::brokerEpoch)
                        .run();
            }
            status.close();
            server.close();
            replication.close();
            forwarder.close();
            // Without ZooKeeper every step of leaving would only retry: give it a moment, then go.
            leaveClusterWithin(cluster.isZooKeeperConnected() ? LEAVE_CLUSTER_BOUND : LEAVE_WITHOUT_ZOOKEEPER_BOUND);
            closeQuietly(groups);
            timers.forEach(ScheduledThreadPoolExecutor::shutdownNow);
            validators.close();
            closeQuietly(logs);
            metrics.close();
            LOG.info("Sluice broker {} stopped", config.brokerId());
        } finally {
            stopped.countDown();
        }
    }

    /**
     * Leaves the cluster (registration deleted, election left, ZooKeeper session closed), giving up after
     * {@code bound}: with ZooKeeper unreachable each of those retries for minutes, and the session expires on its own
     * once the process is gone.
     */
    private void leaveClusterWithin(Duration bound) {
        Thread leaving = new Thread(cluster::close, "sluice-leave-cluster-" + config.brokerId());
        leaving.setDaemon(true);
        leaving.start();
        try {
            leaving.join(bound.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (leaving.isAlive()) {
            LOG.warn(
                    "Broker {}: leaving the cluster did not finish within {} (ZooKeeper unreachable?); stopping anyway",
                    config.brokerId(),
                    bound);
        }
    }

    private static void closeQuietly(GroupCoordinator groups) {
        if (groups == null) {
            return;
        }
        try {
            groups.close();
        } catch (RuntimeException e) {
            LOG.error("Closing the group coordinator failed", e);
        }
    }

    private static void closeQuietly(LogManager logs) {
        try {
            logs.close();
        } catch (IOException e) {
            LOG.error("Closing the logs failed; recovery at the next start repairs what was not flushed", e);
        }
    }

    private void awaitQuietly() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
