package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.SluiceBrokerProcess;
import io.sluice.testkit.security.TestSecurity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
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
        int sent = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps)) {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REAUTH_MS * 3 + 500);
            while (System.nanoTime() < end) {
                producer.send(new ProducerRecord<>("reauth", ("v" + sent).getBytes(StandardCharsets.UTF_8)))
                        .get(30, TimeUnit.SECONDS);
                sent++;
                Thread.sleep(200);
            }
        }
        Properties consumerProps = TestClients.consumerProps(broker.bootstrap());
        consumerProps.putAll(secured);
        List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps)) {
            consumer.assign(List.of(new TopicPartition("reauth", 0)));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (read.size() < sent && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(300)).forEach(read::add);
            }
        }
        assertEquals(sent, read.size(), "every record sent across " + (REAUTH_MS * 3) + " ms of sessions is read back");
    }

    @Test
    void shouldCloseAConnectionThatDoesNotLogInAgain() throws Exception {
        try (RawProtocolClient client = RawProtocolClient.connect(broker.bootstrap())) {
            client.send(
                    new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism("PLAIN")),
                    ApiKeys.SASL_HANDSHAKE,
                    (short) 1);
            SaslAuthenticateResponse login = client.send(
                    new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData()
                            .setAuthBytes(("\u0000" + TestSecurity.USER + "\u0000" + TestSecurity.PASSWORD)
                                    .getBytes(StandardCharsets.UTF_8))),
                    ApiKeys.SASL_AUTHENTICATE,
                    (short) 2);
            assertEquals(Errors.NONE, login.error());
            assertEquals(REAUTH_MS, login.data().sessionLifetimeMs());
            client.send(new MetadataRequest.Builder(new MetadataRequestData()), ApiKeys.METADATA, (short) 12);
            Thread.sleep(REAUTH_MS + 200);
            client.sendOnly(new MetadataRequest.Builder(new MetadataRequestData()), ApiKeys.METADATA, (short) 12);
            assertTrue(client.socket().awaitClosedByPeer(Duration.ofSeconds(10)), "closed after the session ended");
        }
    }
}
