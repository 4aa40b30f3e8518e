package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Poll;
import io.sluice.testkit.SluiceBrokerProcess;
import io.sluice.testkit.security.TestSecurity;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KIP-368 with connections.max.reauth.ms=2000: the Java client's connections outlive several SASL sessions by logging
 * in again, and a connection that does not is closed at its first request after the session ends.
 */
class ReauthenticationTest {
    private static final long REAUTH_MS = 2_000;

    @TempDir
    static Path tempDir;

    static TestSecurity security;
    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        security = TestSecurity.create(tempDir.resolve("tls"));
        List<String> settings = new ArrayList<>(security.brokerSettings("SASL_PLAINTEXT", "PLAIN"));
        settings.add("connections.max.reauth.ms=" + REAUTH_MS);
        broker = TestBroker.start(tempDir.resolve("broker"), settings.toArray(new String[0]));
    }

    @AfterAll
    static void stopBroker() {
        TestBroker.stopAndKeepLog(broker, ReauthenticationTest.class);
    }

    @Test
    void shouldKeepServingClientsThatLogInAgain() throws Exception {
        Map<String, String> secured =
                security.clientProperties("SASL_PLAINTEXT", "SCRAM-SHA-512", TestSecurity.PASSWORD, false);
        Properties producerProps = TestClients.producerProps(broker.bootstrap(), "none");
        producerProps.putAll(secured);
        AtomicInteger sent = new AtomicInteger();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps)) {
            Poll.until(
                    "the producer's connection logged in again twice while sending",
                    Duration.ofSeconds(60),
                    () -> {
                        producer.send(new ProducerRecord<>(
                                        "reauth", ("v" + sent.get()).getBytes(StandardCharsets.UTF_8)))
                                .get(30, TimeUnit.SECONDS);
                        sent.incrementAndGet();
                        return clientMetric(producer.metrics(), "successful-reauthentication-total");
                    },
                    reauthentications -> reauthentications >= 2);
            assertEquals(0, clientMetric(producer.metrics(), "failed-reauthentication-total"), "failed re-logins");
        }
        Properties consumerProps = TestClients.consumerProps(broker.bootstrap());
        consumerProps.putAll(secured);
        List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps)) {
            consumer.assign(List.of(new TopicPartition("reauth", 0)));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (read.size() < sent.get() && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(300)).forEach(read::add);
            }
        }
        assertEquals(sent.get(), read.size(), "every record sent across several sessions is read back");
    }

    /** The value of the client metric {@code name} of the client's own group (summed over connections). */
    private static double clientMetric(Map<MetricName, ? extends Metric> metrics, String name) {
        return metrics.entrySet().stream()
                .filter(e ->
                        e.getKey().name().equals(name) && e.getKey().group().equals("producer-metrics"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .sum();
    }

    @Test
    void shouldCloseAConnectionThatDoesNotLogInAgain() throws Exception {
        try (RawProtocolClient client = RawProtocolClient.connect(broker.bootstrap())) {
            client.send(
                    new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism("PLAIN")),
                    ApiKeys.SASL_HANDSHAKE,
                    (short) 1);
            long loginSentAt = System.nanoTime();
            SaslAuthenticateResponse login = client.send(
                    new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData()
                            .setAuthBytes(("\u0000" + TestSecurity.USER + "\u0000" + TestSecurity.PASSWORD)
                                    .getBytes(StandardCharsets.UTF_8))),
                    ApiKeys.SASL_AUTHENTICATE,
                    (short) 2);
            assertEquals(Errors.NONE, login.error());
            assertEquals(REAUTH_MS, login.data().sessionLifetimeMs());
            // Requests are answered while the session lasts; the first after its end closes the connection.
            Poll.until(
                    "the connection closed at a request after the session ended",
                    Duration.ofSeconds(30),
                    () -> closedAtMetadataRequest(client),
                    closed -> closed);
            long closedAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - loginSentAt);
            assertTrue(
                    closedAfterMs >= REAUTH_MS, "closed " + closedAfterMs + " ms after the login, within its session");
        }
    }

    /** Sends a Metadata request: false when it is answered, true when the broker closes the connection instead. */
    private static boolean closedAtMetadataRequest(RawProtocolClient client) throws IOException {
        RequestHeader header =
                client.sendOnly(new MetadataRequest.Builder(new MetadataRequestData()), ApiKeys.METADATA, (short) 12);
        try {
            client.receive(header);
            return false;
        } catch (EOFException | SocketException e) {
            return true;
        }
    }
}
