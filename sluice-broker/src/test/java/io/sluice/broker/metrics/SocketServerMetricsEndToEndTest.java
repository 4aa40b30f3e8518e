package io.sluice.broker.metrics;

import static io.sluice.broker.metrics.BrokerMetricsEndToEndTest.assertPromtoolAccepts;
import static io.sluice.broker.metrics.BrokerMetricsEndToEndTest.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.api.InProcessBroker;
import io.sluice.testkit.Poll;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's socket-server metrics of a broker with two network threads while clients connect and disconnect: raw TCP
 * clients for exact counts, a kafka-clients Admin for a real Kafka client; read through JMX (Kafka's MBean names and
 * attribute names) and a promtool-checked scrape; the network processors' idle share.
 */
class SocketServerMetricsEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String PROCESSORS =
            "kafka.server:type=socket-server-metrics,listener=PLAINTEXT,networkProcessor=*";
    private final MBeanServer beans = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    Path dataDir;

    @TempDir
    Path scratch;

    /** The sum of {@code attribute} over the listener's network processors. */
    private double sum(String attribute) throws Exception {
        double total = 0;
        for (ObjectName processor : beans.queryNames(new ObjectName(PROCESSORS), null)) {
            total += ((Number) beans.getAttribute(processor, attribute)).doubleValue();
        }
        return total;
    }

    @Test
    void shouldCountConnectionsOpenedAndClosedPerListenerAndProcessorUnderKafkasNames() throws Exception {
        try (InProcessBroker broker =
                new InProcessBroker(dataDir, Map.of("num.network.threads", "2", "sluice.http.listener", "0"))) {
            Set<ObjectName> processors = beans.queryNames(new ObjectName(PROCESSORS), null);
            assertEquals(2, processors.size(), "one MBean per network processor: " + processors);
            double open = sum("connection-count");
            double created = sum("connection-creation-total");
            double closed = sum("connection-close-total");

            List<Socket> clients = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                Socket socket = new Socket();
                socket.connect(new InetSocketAddress(
                        "127.0.0.1", broker.broker.boundAddress().getPort()));
                clients.add(socket);
            }
            Poll.until("five connections counted", WAIT, () -> sum("connection-creation-total"), n -> n == created + 5);
            assertEquals(open + 5, sum("connection-count"));
            assertTrue(sum("connection-creation-rate") > 0, "a creation rate once connections came");
            for (int i = 0; i < 3; i++) {
                clients.get(i).close();
            }
            Poll.until("three closes counted", WAIT, () -> sum("connection-close-total"), n -> n == closed + 3);
            assertEquals(open + 2, sum("connection-count"));

            try (Admin admin = broker.admin()) {
                admin.describeCluster().nodes().get();
                assertTrue(sum("connection-count") >= open + 3, "the Admin client's connection is counted");
            }
            for (Socket socket : clients) {
                socket.close();
            }
            Poll.until("every connection closed", WAIT, () -> sum("connection-count"), n -> n == open);
            assertEquals(
                    sum("connection-creation-total") - created,
                    sum("connection-close-total") - closed,
                    "every connection made in this test was closed");

            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                            + broker.broker.httpAddress().getPort() + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            String scrape = response.body();
            assertPromtoolAccepts(scrape, scratch);
            long total = 0;
            for (int processor = 0; processor < 2; processor++) {
                total += sample(
                        scrape,
                        "kafka_server_socket_server_metrics_connection_creation_total{listener=\"PLAINTEXT\","
                                + "networkprocessor=\"" + processor + "\"}");
            }
            assertEquals((long) sum("connection-creation-total"), total, "the scrape holds the JMX values");
        }
    }

    @Test
    void shouldShowEachProcessorsIdleShareAndTheirAverage() throws Exception {
        try (InProcessBroker broker = new InProcessBroker(dataDir, Map.of("num.network.threads", "2"))) {
            ObjectName average = new ObjectName("kafka.network:type=SocketServer,name=NetworkProcessorAvgIdlePercent");
            double idle = Poll.until(
                    "a first idle sample",
                    Duration.ofSeconds(60),
                    () -> ((Number) beans.getAttribute(average, "Value")).doubleValue(),
                    v -> !Double.isNaN(v));
            assertTrue(idle >= 0 && idle <= 1, "a fraction like Kafka's: " + idle);
            for (int processor = 0; processor < 2; processor++) {
                double one = ((Number) beans.getAttribute(
                                new ObjectName(
                                        "kafka.network:type=Processor,name=IdlePercent,networkProcessor=" + processor),
                                "Value"))
                        .doubleValue();
                assertTrue(one >= 0 && one <= 1, "processor " + processor + ": " + one);
            }
            assertTrue(broker.broker.boundAddress() != null);
        }
    }
}
