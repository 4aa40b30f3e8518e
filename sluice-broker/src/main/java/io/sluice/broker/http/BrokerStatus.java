package io.sluice.broker.http;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sluice.broker.cluster.ClusterMembership;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.group.ConsumerLag;
import io.sluice.broker.group.GroupCoordinator;
import io.sluice.broker.group.LeaderHighWatermarks;
import io.sluice.broker.metrics.BrokerMetrics;
import io.sluice.broker.metrics.ConsumerLagMetrics;
import io.sluice.broker.move.MoveTargets;
import io.sluice.broker.security.ClientSecurity;
import io.sluice.broker.topic.TopicManager;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.ClusterState;
import io.sluice.codec.endpoint.Endpoint;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a broker shows about itself beyond its Kafka-named metrics, wired in one place: consumer lag of the groups it
 * coordinates (gauges and JSON), and the HTTP listener with the Prometheus scrape, the status page and its JSON,
 * registered in the cluster state so peers can gather each other's answers.
 *
 * <p>Thread-safe; {@link #close()} stops the listener and the lag source's thread.
 */
public final class BrokerStatus implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerStatus.class);
    /** How often lag gauges are added or removed and leaders asked for high watermarks; one request per leader. */
    static final Duration LAG_REFRESH_INTERVAL = Duration.ofSeconds(5);

    private final LeaderHighWatermarks highWatermarks;
    private final ConsumerLag consumerLag;
    private final MetricsHttpServer http;

    private BrokerStatus(LeaderHighWatermarks highWatermarks, ConsumerLag consumerLag, MetricsHttpServer http) {
        this.highWatermarks = highWatermarks;
        this.consumerLag = consumerLag;
        this.http = http;
    }

    /**
     * Starts consumer lag (refreshed on {@code scheduler}) and, when {@code sluice.http.listener} is set, the HTTP
     * listener, advertised through {@code membership} for its next join. Call before joining.
     *
     * @param advertisedHost the host peers reach this broker at, used when the listener binds a wildcard address
     */
    public static BrokerStatus start(
            BrokerConfig config,
            BrokerMetrics metrics,
            ClusterMembership membership,
            GroupCoordinator groups,
            TopicManager topics,
            MoveTargets moves,
            ScheduledExecutorService scheduler,
            String advertisedHost)
            throws InterruptedException {
        LeaderHighWatermarks highWatermarks = new LeaderHighWatermarks(
                config.brokerId(),
                topics::hostedPartition,
                () -> currentState(membership),
                ClientSecurity.interBroker(config));
        ConsumerLag lag = new ConsumerLag(groups, highWatermarks);
        ConsumerLagMetrics lagMetrics = new ConsumerLagMetrics(metrics.registry(), lag::groups, System::nanoTime);
        MetricsHttpServer http = null;
        try {
            // The task logs its own failures: one that threw would stop the refresh for good, its exception kept
            // in this future.
            var unused = scheduler.scheduleWithFixedDelay(
                    () -> {
                        try {
                            highWatermarks.refresh(groups.servedGroupOffsets());
                            lagMetrics.sync();
                        } catch (RuntimeException e) {
                            LOG.warn("Refreshing consumer lag failed; trying again in {}", LAG_REFRESH_INTERVAL, e);
                        }
                    },
                    LAG_REFRESH_INTERVAL.toMillis(),
                    LAG_REFRESH_INTERVAL.toMillis(),
                    TimeUnit.MILLISECONDS);
            if (config.httpListener().isPresent()) {
                PrometheusRegistry scrape = MetricsHttpServer.registryFor(metrics.registry());
                scrape.register(metrics.socketServer().prometheus());
                http = MetricsHttpServer.start(
                        config.httpListener().get(),
                        scrape,
                        new StatusSources(
                                config.brokerId(), membership, lag::groups, moves::progress, metrics.topics()),
                        HttpAuthenticator.of(config, () -> currentState(membership)));
                InetSocketAddress bound = http.boundAddress();
                String host = bound.getAddress().isAnyLocalAddress()
                        ? advertisedHost
                        : bound.getAddress().getHostAddress();
                membership.advertiseHttp(Endpoint.of(host, bound.getPort()));
                LOG.info(
                        "Broker {} serves its status page on http://{}:{}/ and Prometheus metrics on /metrics",
                        config.brokerId(),
                        ClusterJson.hostForUrl(host),
                        bound.getPort());
            }
            return new BrokerStatus(highWatermarks, lag, http);
        } catch (InterruptedException | RuntimeException e) {
            highWatermarks.close();
            throw e;
        }
    }

    private static ClusterState currentState(ClusterMembership membership) {
        ClusterNode node = membership.node();
        return node == null ? ClusterState.EMPTY : node.current();
    }

    /** Consumer lag of the groups this broker coordinates now. */
    public ConsumerLag consumerLag() {
        return consumerLag;
    }

    /** Where the HTTP listener is bound; null when {@code sluice.http.listener} is unset. */
    public InetSocketAddress httpAddress() {
        return http == null ? null : http.boundAddress();
    }

    @Override
    public void close() {
        if (http != null) {
            http.close();
        }
        highWatermarks.close();
    }
}
