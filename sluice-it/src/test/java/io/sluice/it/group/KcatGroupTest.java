package io.sluice.it.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.it.Acks;
import io.sluice.testkit.Kcat;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.SluiceBrokerProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** librdkafka's balanced consumer ({@code kcat -G}) reads a topic to its end through a Sluice consumer group. */
class KcatGroupTest {
    private static final String TOPIC = "kcat-group-topic";
    private static final String GROUP = "kcat-group";
    private static final int PARTITIONS = 4;
    private static final int RECORDS = 200;

    @TempDir
    static Path tempDir;

    static SluiceBrokerProcess broker;

    @BeforeAll
    static void startBroker() throws Exception {
        Assumptions.assumeTrue(Kcat.isInstalled(), Kcat.NOT_INSTALLED);
        broker = GroupIt.startBroker(tempDir);
        GroupIt.createTopic(broker.bootstrap(), TOPIC, PARTITIONS);
        try (KafkaProducer<String, String> producer = GroupIt.producer(broker.bootstrap())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = 0; i < RECORDS; i++) {
                acks.add(producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, "k" + i, "v" + i)));
            }
            producer.flush();
            Acks.awaitAll(acks);
        }
    }

    @AfterAll
    static void stopBroker() {
        GroupIt.stopAndKeepLog(broker, KcatGroupTest.class);
    }

    @Test
    void shouldReadTopicToTheEndAsBalancedConsumer() throws Exception {
        ProcessResult result = new Kcat(broker.bootstrap())
                .run(
                        new byte[0],
                        "-G",
                        GROUP,
                        "-X",
                        "auto.offset.reset=earliest",
                        "-X",
                        "session.timeout.ms=" + GroupIt.SESSION_TIMEOUT_MS,
                        "-o",
                        "beginning",
                        "-e",
                        "-q",
                        "-f",
                        "%s\\n",
                        TOPIC);
        assertTrue(result.succeeded(), () -> result.describe() + "\nbroker: " + broker.outputTail());
        Set<String> expected =
                IntStream.range(0, RECORDS).mapToObj(i -> "v" + i).collect(Collectors.toCollection(TreeSet::new));
        Set<String> read =
                result.stdoutLines().stream().filter(l -> !l.isBlank()).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(expected, read);

        // librdkafka commits what it consumed when it leaves: the group's offsets are at the end of each partition.
        try (Admin admin = GroupIt.admin(broker.bootstrap())) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(GROUP)
                    .partitionsToOffsetAndMetadata()
                    .get(60, TimeUnit.SECONDS);
            assertEquals(PARTITIONS, committed.size(), committed.toString());
            committed.values().forEach(o -> assertEquals(RECORDS / PARTITIONS, o.offset(), committed.toString()));
        }
    }
}
