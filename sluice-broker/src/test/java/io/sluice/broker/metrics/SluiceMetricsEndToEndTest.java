package io.sluice.broker.metrics;

import static io.sluice.broker.metrics.BrokerMetricsEndToEndTest.assertPromtoolAccepts;
import static io.sluice.broker.metrics.BrokerMetricsEndToEndTest.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sluice.broker.api.InProcessBroker;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.controller.ClusterController;
import io.sluice.cluster.controller.ControllerStats;
import io.sluice.cluster.zk.ClusterConnection;
import io.sluice.cluster.zk.EmbeddedZooKeeper;
import io.sluice.cluster.zk.SessionStateTracker.SessionState;
import io.sluice.testkit.Poll;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sluice's own metrics after a known workload: N single-batch produces of uncompressed records to a topic stored as
 * gzip (each batch recompressed) and N to a topic keeping the producer's codec (each passed through), read through a
 * real JMX connector and a Prometheus scrape checked by promtool; the controller's publications against its own
 * ZooKeeper write accounting; a real ZooKeeper session expired by the server.
 */
class SluiceMetricsEndToEndTest {
    private static final String RECOMPRESSED = "stored-as-gzip";
    private static final String PASSED_THROUGH = "stored-as-sent";
    private static final int PRODUCES = 20;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dataDir;

    @TempDir
    static Path scratch;

    static InProcessBroker broker;
    static JMXConnectorServer jmxServer;
    static JMXConnector jmx;
    static MBeanServerConnection beans;

    @BeforeAll
    @SuppressWarnings("BanJNDI") // a JMX client of this test's own connector on 127.0.0.1, as a monitoring tool reads
    static void startBrokerAndProduce() throws Exception {
        broker = new InProcessBroker(dataDir, Map.of("sluice.http.listener", "0"));
        jmxServer = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi://127.0.0.1"), null, ManagementFactory.getPlatformMBeanServer());
        jmxServer.start();
        jmx = JMXConnectorFactory.connect(jmxServer.getAddress());
        beans = jmx.getMBeanServerConnection();
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(
                            new NewTopic(RECOMPRESSED, 1, (short) 1).configs(Map.of("compression.type", "gzip")),
                            new NewTopic(PASSED_THROUGH, 1, (short) 1).configs(Map.of("compression.type", "producer"))))
                    .all()
                    .get();
        }
        produce(broker.bootstrap(), RECOMPRESSED, PASSED_THROUGH);
    }

    /** {@link #PRODUCES} uncompressed single-record batches to each topic, one produce request each. */
    static void produce(String bootstrap, String... topics) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String topic : topics) {
                for (int i = 0; i < PRODUCES; i++) {
                    producer.send(new ProducerRecord<>(topic, ("record " + i).getBytes(StandardCharsets.UTF_8)))
                            .get();
                }
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (jmx != null) {
            jmx.close();
        }
        if (jmxServer != null) {
            jmxServer.stop();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static Object attribute(String objectName, String attribute) throws Exception {
        return beans.getAttribute(new ObjectName(objectName), attribute);
    }

    private static long count(String objectName) throws Exception {
        return (Long) attribute(objectName, "Count");
    }

    @Test
    void shouldCountRecompressedAndPassedThroughBatchesAndTimeEachValidation() throws Exception {
        assertEquals(PRODUCES, count("io.sluice:type=ProduceValidation,name=RecompressedBatchesPerSec"));
        assertEquals(PRODUCES, count("io.sluice:type=ProduceValidation,name=PassedThroughBatchesPerSec"));
        assertEquals(
                "batches", attribute("io.sluice:type=ProduceValidation,name=RecompressedBatchesPerSec", "EventType"));
        String time = "io.sluice:type=ProduceValidation,name=TimeUs";
        assertEquals(2 * PRODUCES, count(time), "one validation per produce partition");
        double median = (Double) attribute(time, "50thPercentile");
        double p99 = (Double) attribute(time, "99thPercentile");
        assertTrue(
                median > 0 && median <= p99 && p99 <= (Double) attribute(time, "Max"),
                "percentiles from the histogram: median " + median + ", 99th " + p99);
    }

    @Test
    void shouldAccountEveryClusterStatePublicationAsTheControllerCountsItsWrites() throws Exception {
        ClusterController controller = broker.broker.membership().node().controller();
        controller.writeSnapshotNow().get();
        ControllerStats stats = controller.stats();
        String delta = "io.sluice:type=ClusterStatePublication,kind=delta,name=";
        String snapshot = "io.sluice:type=ClusterStatePublication,kind=snapshot,name=";
        // The controller thread may publish meanwhile (the broker's own registration changes): compare when quiet.
        Poll.until(
                "publications matching the controller's accounting",
                WAIT,
                () -> count(delta + "SizeBytes") == stats.deltas.get()
                        && count(snapshot + "SizeBytes") == stats.snapshots.get()
                        && count(delta + "PublishedBytesPerSec") + count(snapshot + "PublishedBytesPerSec")
                                == stats.bytesWritten.get(),
                matches -> matches);
        assertTrue(count(delta + "SizeBytes") >= 2, "a delta per created topic at least");
        assertTrue(count(snapshot + "SizeBytes") >= 1, "the snapshot asked for");
        assertEquals(count(delta + "SizeBytes"), count(delta + "TimeUs"));
        assertTrue((Double) attribute(snapshot + "SizeBytes", "Max") > 0);
        assertEquals(
                SessionState.CONNECTED.code(),
                ((Number) attribute("io.sluice:type=ZooKeeperSession,name=State", "Value")).intValue());
        assertEquals(0, count("io.sluice:type=ZooKeeperSession,name=ExpirationsPerSec"));
    }

    @Test
    void shouldServeTheSameValuesInAScrapeThatPromtoolAccepts() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                        + broker.broker.httpAddress().getPort() + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        String scrape = response.body();
        assertPromtoolAccepts(scrape, scratch);
        assertEquals(PRODUCES, sample(scrape, "io_sluice_producevalidation_recompressedbatches_total"));
        assertEquals(PRODUCES, sample(scrape, "io_sluice_producevalidation_passedthroughbatches_total"));
        assertEquals(2 * PRODUCES, sample(scrape, "io_sluice_producevalidation_timeus_count"));
        assertTrue(scrape.contains("io_sluice_producevalidation_timeus{quantile=\"0.99\"}"), "the 99th percentile");
        assertTrue(sample(scrape, "io_sluice_clusterstatepublication_sizebytes_count{kind=\"delta\"}") >= 2);
        assertEquals(0, sample(scrape, "io_sluice_zookeepersession_state"));
        assertEquals(0, sample(scrape, "io_sluice_zookeepersession_expirations_total"));
    }

    @Test
    void shouldCountNothingOnTheHotPathWithMetricsDisabled(@TempDir Path otherDir) throws Exception {
        try (InProcessBroker off = new InProcessBroker(otherDir, Map.of("sluice.metrics.enable", "false"))) {
            try (Admin admin = off.admin()) {
                admin.createTopics(List.of(
                                new NewTopic(RECOMPRESSED, 1, (short) 1).configs(Map.of("compression.type", "gzip"))))
                        .all()
                        .get();
            }
            produce(off.bootstrap(), RECOMPRESSED);
            KafkaMetrics registry = off.broker.metrics().registry();
            assertEquals(
                    0,
                    registry.meter(
                                    MetricName.of(
                                            SluiceMetrics.DOMAIN,
                                            SluiceMetrics.VALIDATION,
                                            "RecompressedBatchesPerSec"),
                                    "batches")
                            .getCount());
            assertEquals(
                    0,
                    off.broker
                            .metrics()
                            .topics()
                            .allTopicsMeter("MessagesInPerSec", "messages")
                            .getCount());
            assertTrue(
                    registry.histogram(RequestMetrics.name("TotalTimeMs", "Produce"))
                                    .getCount()
                            == 0,
                    "no request timed");
        }
    }

    @Test
    void shouldCountAnExpiredZooKeeperSessionAndShowTheNewOne(@TempDir Path zkDir) throws Exception {
        ClusterConfig config = ClusterConfig.defaults().withSessionTimeout(Duration.ofSeconds(2));
        try (EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(zkDir);
                ClusterConnection connection = ClusterConnection.open(zk.connectString(), config)) {
            KafkaMetrics registry = new KafkaMetrics(null);
            new SluiceMetrics(registry).followZooKeeperSession(connection.session());
            MetricName state = MetricName.of(SluiceMetrics.DOMAIN, SluiceMetrics.ZOOKEEPER_SESSION, "State");
            Poll.until("connected", WAIT, () -> gauge(registry, state), v -> v == SessionState.CONNECTED.code());

            connection
                    .client()
                    .getZookeeperClient()
                    .getZooKeeper()
                    .getTestable()
                    .injectSessionExpiration();
            Poll.until(
                    "the expiration counted",
                    WAIT,
                    () -> scrape(registry),
                    s -> s.contains("io_sluice_zookeepersession_expirations_total 1.0"));
            Poll.until("a new session", WAIT, () -> gauge(registry, state), v -> v == SessionState.CONNECTED.code());
            assertEquals(
                    1,
                    registry.meter(
                                    MetricName.of(
                                            SluiceMetrics.DOMAIN, SluiceMetrics.ZOOKEEPER_SESSION, "ExpirationsPerSec"),
                                    "expirations")
                            .getCount());
        }
    }

    private static int gauge(KafkaMetrics registry, MetricName name) {
        int[] value = {-1};
        registry.forEach((n, entry) -> {
            if (n.equals(name)) {
                value[0] = ((KafkaMetrics.GaugeEntry) entry).value().get().intValue();
            }
        });
        return value[0];
    }

    private static String scrape(KafkaMetrics registry) throws Exception {
        PrometheusRegistry prometheus = new PrometheusRegistry();
        prometheus.register(new PrometheusBridge(registry));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, prometheus.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }
}
