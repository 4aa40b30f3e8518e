package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Kcat;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.SluiceBrokerProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** librdkafka (kcat) produces and consumes with each codec; it also reads what the Java producer wrote. */
class KcatCodecTest {

    private static final int RECORDS = 2_000;

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        Assumptions.assumeTrue(Kcat.isInstalled(), Kcat.NOT_INSTALLED);
        broker = TestBroker.start(tempDir);
    }

    @AfterAll
    static void stopBroker() {
        TestBroker.stopAndKeepLog(broker, KcatCodecTest.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void shouldProduceAndConsumeWithKcat(String codec) throws Exception {
        String topic = "kcat-" + codec;
        TestTopics.create(broker.bootstrap(), topic, 1);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            lines.add("key-" + i + Kcat.KEY_DELIMITER + "value-" + codec + "-" + i + "-" + "x".repeat(i % 50));
        }
        Kcat kcat = new Kcat(broker.bootstrap());

        ProcessResult produced = kcat.produce(topic, codec, lines);
        assertTrue(produced.succeeded(), produced::describe);
        ProcessResult consumed = kcat.consumeAll(topic, 0);
        assertTrue(consumed.succeeded(), consumed::describe);
        assertEquals(lines, consumed.stdoutLines(), consumed::describe);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "zstd"})
    void shouldConsumeWithKcatWhatTheJavaProducerWrote(String codec) throws Exception {
        String topic = "kcat-java-" + codec;
        TestTopics.create(broker.bootstrap(), topic, 1);
        List<String> expected = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = TestClients.producer(broker.bootstrap(), codec)) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                String key = "java-" + i;
                String value = "from-java-" + codec + "-" + i;
                acks.add(producer.send(new ProducerRecord<>(
                        topic, 0, key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8))));
                expected.add(key + Kcat.KEY_DELIMITER + value);
            }
            producer.flush();
            Acks.awaitAll(acks);
            producer.send(new ProducerRecord<>(topic, 0, new byte[0], new byte[0]))
                    .get(30, TimeUnit.SECONDS);
            expected.add(Kcat.KEY_DELIMITER);
        }

        ProcessResult consumed = new Kcat(broker.bootstrap()).consumeAll(topic, 0);
        assertTrue(consumed.succeeded(), consumed::describe);
        assertEquals(expected, consumed.stdoutLines(), consumed::describe);
    }
}
