package io.sluice.broker.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.broker.network.ConnectionObserver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Meter;
import org.apache.kafka.common.utils.Time;

/**
 * Kafka's {@code kafka.server:type=socket-server-metrics,listener=<name>,networkProcessor=<n>} connection metrics,
 * kept by kafka-clients' own metrics library (Kafka's Selector keeps them there too), so the MBean, its attribute
 * names and the windowed rates are Kafka's: {@code connection-count} (open now), {@code connection-creation-rate} and
 * {@code -total}, {@code connection-close-rate} and {@code -total}. Sluice's network processor is the Netty event loop
 * a connection is pinned to. On /metrics they are {@code kafka_server_socket_server_metrics_connections} (the
 * gauge connection-count: Prometheus reserves {@code _count} for summaries and histograms),
 * {@code ..._connection_creation_total} (counter) and {@code ..._connection_creation_rate} (gauge), and so on, labelled
 * {@code listener} and {@code networkprocessor} as jmx_exporter's Kafka rules label them.
 *
 * <p>Thread-safe; {@link #close()} removes the MBeans.
 */
public final class SocketServerMetrics implements ConnectionObserver, AutoCloseable {
    public static final String GROUP = "socket-server-metrics";
    private static final String CONNECTION_COUNT = "connection-count";
    private static final String PROMETHEUS_PREFIX = "kafka_server_socket_server_metrics_";

    private final Metrics metrics;
    private final Map<String, Processor> processors = new ConcurrentHashMap<>();

    /** @param jmx whether the MBeans are registered (the platform MBean server), as a broker does */
    public SocketServerMetrics(boolean jmx) {
        this.metrics = new Metrics(
                new MetricConfig(),
                jmx ? List.of(new JmxReporter()) : List.of(),
                Time.SYSTEM,
                new KafkaMetricsContext("kafka.server"));
    }

    /** Creates the metrics of every (listener, processor) pair up front, as Kafka does when its processors start. */
    public void register(List<String> listenerNames, int networkThreads) {
        for (String listener : listenerNames) {
            for (int i = 0; i < networkThreads; i++) {
                processor(listener, i);
            }
        }
    }

    @Override
    public void opened(String listenerName, int networkThread) {
        Processor p = processor(listenerName, networkThread);
        p.open.incrementAndGet();
        p.created.record();
    }

    @Override
    public void closed(String listenerName, int networkThread) {
        Processor p = processor(listenerName, networkThread);
        p.open.decrementAndGet();
        p.closed.record();
    }

    private Processor processor(String listenerName, int networkThread) {
        return processors.computeIfAbsent(
                listenerName + "/" + networkThread, key -> new Processor(listenerName, networkThread));
    }

    /** The Prometheus side: the same Kafka metrics, read afresh at each scrape. */
    public MultiCollector prometheus() {
        return () -> {
            Map<String, List<GaugeSnapshot.GaugeDataPointSnapshot>> gauges = new LinkedHashMap<>();
            Map<String, List<CounterSnapshot.CounterDataPointSnapshot>> counters = new LinkedHashMap<>();
            metrics.metrics().forEach((name, metric) -> {
                if (!GROUP.equals(name.group())) {
                    return;
                }
                Labels labels = Labels.of(
                        "listener",
                        name.tags().get("listener"),
                        "networkprocessor",
                        name.tags().get("networkProcessor"));
                double value = ((Number) metric.metricValue()).doubleValue();
                // Prometheus reserves _count for histograms and summaries (promtool refuses it on a gauge).
                String family = CONNECTION_COUNT.equals(name.name())
                        ? "connections"
                        : name.name().replace('-', '_');
                if (family.endsWith("_total")) {
                    counters.computeIfAbsent(
                                    family.substring(0, family.length() - "_total".length()), f -> new ArrayList<>())
                            .add(CounterSnapshot.CounterDataPointSnapshot.builder()
                                    .labels(labels)
                                    .value(value)
                                    .build());
                } else {
                    gauges.computeIfAbsent(family, f -> new ArrayList<>())
                            .add(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                                    .labels(labels)
                                    .value(value)
                                    .build());
                }
            });
            List<MetricSnapshot> snapshots = new ArrayList<>();
            gauges.forEach((family, points) -> {
                GaugeSnapshot.Builder b = GaugeSnapshot.builder()
                        .name(PROMETHEUS_PREFIX + family)
                        .help("Kafka's kafka.server:type=" + GROUP + " " + family.replace('_', '-'));
                points.forEach(b::dataPoint);
                snapshots.add(b.build());
            });
            counters.forEach((family, points) -> {
                CounterSnapshot.Builder b = CounterSnapshot.builder()
                        .name(PROMETHEUS_PREFIX + family)
                        .help("Kafka's kafka.server:type=" + GROUP + " " + family.replace('_', '-') + "-total");
                points.forEach(b::dataPoint);
                snapshots.add(b.build());
            });
            return new MetricSnapshots(snapshots);
        };
    }

    @Override
    public void close() {
        metrics.close();
    }

    /** The metrics of one network processor of one listener, in Kafka's Selector's names. */
    private final class Processor {
        final AtomicInteger open = new AtomicInteger();
        final Sensor created;
        final Sensor closed;

        Processor(String listener, int networkThread) {
            Map<String, String> tags = new LinkedHashMap<>();
            tags.put("listener", listener);
            tags.put("networkProcessor", Integer.toString(networkThread));
            String suffix = ":" + listener + ":" + networkThread;
            created = metrics.sensor("connections-created" + suffix);
            created.add(new Meter(
                    metric("connection-creation-rate", "new connections established per second", tags),
                    metric("connection-creation-total", "new connections established", tags)));
            closed = metrics.sensor("connections-closed" + suffix);
            closed.add(new Meter(
                    metric("connection-close-rate", "connections closed per second", tags),
                    metric("connection-close-total", "connections closed", tags)));
            metrics.addMetric(
                    metric(CONNECTION_COUNT, "The current number of active connections.", tags),
                    (config, now) -> open.get());
        }

        private MetricName metric(String name, String description, Map<String, String> tags) {
            return metrics.metricName(name, GROUP, description, tags);
        }
    }
}
