package io.sluice.broker.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sluice.broker.config.HttpListenerAddress;
import io.sluice.broker.metrics.KafkaMetrics;
import io.sluice.broker.metrics.PrometheusBridge;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's HTTP listener (off unless {@code sluice.http.listener} is set): read-only, GET only, serving
 * {@code /metrics} in Prometheus' text format, the status page at {@code /} and its JSON under {@code /api/}
 * (docs/status-page.md). Requests are bounded before any handling: a request line over
 * {@value #MAX_INITIAL_LINE_BYTES} bytes gets 414, headers over {@value #MAX_HEADER_BYTES} bytes 431, any body 413,
 * anything unparsable 400; an idle connection is closed after {@value #IDLE_TIMEOUT_SECONDS} s. It runs on its own two
 * threads, apart from the Kafka listener's, so a scrape or a bad client never delays a produce or fetch.
 *
 * <p>Thread-safe; {@link #close()} may be called more than once.
 */
public final class MetricsHttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsHttpServer.class);
    /** Longest request line: a path and a short query is all this listener answers. */
    static final int MAX_INITIAL_LINE_BYTES = 4096;
    /** All headers together: browsers and scrapers send well under this. */
    static final int MAX_HEADER_BYTES = 8192;
    /** Bodies are refused outright (GET only), so nothing of one is kept. */
    static final int MAX_BODY_BYTES = 0;
    /** A connection with nothing to read for this long is closed (slow or stuck clients hold no socket for ever). */
    static final int IDLE_TIMEOUT_SECONDS = 30;
    /** How often the throughput history samples the byte counters: fine enough for a chart of minutes. */
    static final long THROUGHPUT_SAMPLE_MS = 5_000;
    /** Samples kept per broker: ten minutes at one per {@link #THROUGHPUT_SAMPLE_MS}, four longs each. */
    static final int THROUGHPUT_SAMPLES = 121;

    private final EventLoopGroup acceptor;
    private final EventLoopGroup workers;
    private final Channel serverChannel;
    private final PeerFanOut peers;

    private MetricsHttpServer(
            EventLoopGroup acceptor, EventLoopGroup workers, Channel serverChannel, PeerFanOut peers) {
        this.acceptor = acceptor;
        this.workers = workers;
        this.serverChannel = serverChannel;
        this.peers = peers;
    }

    /** What a scrape shows: the broker's Kafka-named metrics and the JVM's (memory, GC, threads, classes, CPU). */
    public static PrometheusRegistry registryFor(KafkaMetrics metrics) {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new PrometheusBridge(metrics));
        JvmMetrics.builder().register(registry);
        return registry;
    }

    /** Binds the listener and serves {@code registry} and the status of {@code sources}; fails when it cannot bind. */
    public static MetricsHttpServer start(
            HttpListenerAddress address, PrometheusRegistry registry, StatusSources sources)
            throws InterruptedException {
        return start(address, registry, sources, null);
    }

    /** As {@link #start(HttpListenerAddress, PrometheusRegistry, StatusSources)}; a non-null login is asked first. */
    static MetricsHttpServer start(
            HttpListenerAddress address,
            PrometheusRegistry registry,
            StatusSources sources,
            HttpAuthenticator authenticator)
            throws InterruptedException {
        EventLoopGroup acceptor = new NioEventLoopGroup(1, new DefaultThreadFactory("sluice-http-acceptor", true));
        EventLoopGroup workers = new NioEventLoopGroup(1, new DefaultThreadFactory("sluice-http", true));
        ThroughputHistory throughput = new ThroughputHistory(
                sources.topicMetrics().allTopicsMeter("BytesInPerSec", "bytes")::getCount,
                sources.topicMetrics().allTopicsMeter("BytesOutPerSec", "bytes")::getCount,
                sources.topicMetrics().allTopicsMeter("MessagesInPerSec", "messages")::getCount,
                System::currentTimeMillis,
                THROUGHPUT_SAMPLE_MS,
                THROUGHPUT_SAMPLES);
        ClusterJson cluster = new ClusterJson(sources.membership(), sources.transfers());
        PeerFanOut peers = new PeerFanOut(sources.brokerId(), () -> ClusterJson.httpBases(cluster.state()));
        HttpRoutes routes = new HttpRoutes(
                registry,
                new StatusApi(cluster, sources.consumerLag(), throughput, peers),
                new StaticResources(),
                authenticator);
        try {
            throughput.sample();
            // The task logs its own failures: one that threw would stop the sampling for good, its exception kept
            // in this future.
            var unused = workers.scheduleAtFixedRate(
                    () -> {
                        try {
                            throughput.sample();
                        } catch (RuntimeException e) {
                            LOG.warn("Sampling throughput for the status page failed", e);
                        }
                    },
                    THROUGHPUT_SAMPLE_MS,
                    THROUGHPUT_SAMPLE_MS,
                    TimeUnit.MILLISECONDS);
            Channel channel = new ServerBootstrap()
                    .group(acceptor, workers)
                    .channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline()
                                    .addLast("idle", new ReadTimeoutHandler(IDLE_TIMEOUT_SECONDS))
                                    .addLast(
                                            "http",
                                            new HttpServerCodec(
                                                    MAX_INITIAL_LINE_BYTES, MAX_HEADER_BYTES, MAX_HEADER_BYTES))
                                    .addLast("body", new HttpObjectAggregator(MAX_BODY_BYTES))
                                    .addLast("routes", routes);
                        }
                    })
                    .bind(address.host(), address.port())
                    .sync()
                    .channel();
            return new MetricsHttpServer(acceptor, workers, channel, peers);
        } catch (InterruptedException | RuntimeException e) {
            peers.close();
            acceptor.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly();
            workers.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly();
            throw e;
        }
    }

    public InetSocketAddress boundAddress() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    @Override
    public void close() {
        serverChannel.close().awaitUninterruptibly();
        acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        peers.close();
    }
}
