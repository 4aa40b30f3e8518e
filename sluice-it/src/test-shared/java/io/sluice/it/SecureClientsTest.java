package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.security.TestSecurity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Java client (producer, consumer, admin) over every security protocol and mechanism: SSL with and without a
 * client certificate, SASL_PLAINTEXT and SASL_SSL with PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512. One broker per
 * protocol, started on first use. Records up to 200 KB make a fetch span several TLS chunks.
 */
class SecureClientsTest {
    private static final int RECORDS = 40;

    @TempDir
    static Path tempDir;

    static SecureBrokers brokers;
    static TestSecurity security;

    @BeforeAll
    static void makeCertificates() throws Exception {
        brokers = new SecureBrokers(tempDir, SecureClientsTest.class);
        security = brokers.security();
    }

    @AfterAll
    static void stopBrokers() {
        brokers.close();
    }

    @ParameterizedTest(name = "{0} {1} client certificate {2}")
    @CsvSource({
        "SSL,,false",
        "SSL,,true",
        "SASL_PLAINTEXT,PLAIN,false",
        "SASL_PLAINTEXT,SCRAM-SHA-256,false",
        "SASL_PLAINTEXT,SCRAM-SHA-512,false",
        "SASL_SSL,PLAIN,false",
        "SASL_SSL,SCRAM-SHA-256,false",
        "SASL_SSL,SCRAM-SHA-512,true"
    })
    void shouldProduceConsumeAndAdministerOverASecuredListener(String protocol, String mechanism, boolean certificate)
            throws Exception {
        String bootstrap = brokers.broker(protocol).bootstrap();
        Map<String, String> secured =
                security.clientProperties(protocol, mechanism, TestSecurity.PASSWORD, certificate);
        String topic = "secure-" + protocol.toLowerCase(Locale.ROOT) + "-"
                + (mechanism == null ? "tls" : mechanism.toLowerCase(Locale.ROOT)) + "-" + certificate;

        Properties adminProps = new Properties();
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        adminProps.putAll(secured);
        try (Admin admin = Admin.create(adminProps)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            assertTrue(admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic), "topic listed");
        }

        List<byte[]> values = new ArrayList<>();
        Properties producerProps = TestClients.producerProps(bootstrap, "none");
        producerProps.putAll(secured);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps)) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] value = new byte[i % 4 == 0 ? 200_000 : 100 + i];
                java.util.Arrays.fill(value, (byte) ('a' + i % 26));
                values.add(value);
                producer.send(new ProducerRecord<>(topic, ("k" + i).getBytes(StandardCharsets.UTF_8), value))
                        .get(30, TimeUnit.SECONDS);
            }
        }

        Properties consumerProps = TestClients.consumerProps(bootstrap);
        consumerProps.putAll(secured);
        List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps)) {
            consumer.assign(List.of(new TopicPartition(topic, 0)));
            consumer.seekToBeginning(List.of(new TopicPartition(topic, 0)));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (read.size() < RECORDS && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(read::add);
            }
        }
        assertEquals(RECORDS, read.size(), "records read back over " + protocol);
        for (int i = 0; i < RECORDS; i++) {
            assertEquals(i, read.get(i).offset());
            assertArrayEquals(values.get(i), read.get(i).value(), "value of record " + i);
        }
    }
}
