package io.sluice.broker.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kafka-clients end to end: many updates of a few keys to a topic switched to cleanup.policy=compact while the broker
 * runs; once the cleaner has run, a consumer reading from the beginning sees every key's latest value at the offset the
 * producer was told, and fewer records than were written.
 */
class CompactionEndToEndTest {
    private static final String TOPIC = "compacted";
    private static final int KEYS = 40;
    private static final int WRITES = 4_000;

    @TempDir
    Path dataDir;

    @Test
    void consumersReadTheLatestValueOfEveryKeyAtItsOriginalOffsetAfterCleaning() throws Exception {
        try (InProcessBroker broker = new InProcessBroker(dataDir, Map.of("log.cleaner.backoff.ms", "50"));
                Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1)
                            .configs(Map.of("segment.bytes", "8192", "min.cleanable.dirty.ratio", "0.1"))))
                    .all()
                    .get();
            Map<String, String> latestValue = new HashMap<>();
            Map<String, Long> latestOffset = new HashMap<>();
            Properties producerProps = new Properties();
            producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
            producerProps.put(ProducerConfig.LINGER_MS_CONFIG, 5);
            producerProps.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
            try (KafkaProducer<String, String> producer =
                    new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
                List<Future<RecordMetadata>> sent = new ArrayList<>();
                for (int i = 0; i < WRITES; i++) {
                    sent.add(producer.send(new ProducerRecord<>(TOPIC, "key-" + (i % KEYS), "value-" + i)));
                }
                for (int i = 0; i < WRITES; i++) {
                    String key = "key-" + (i % KEYS);
                    latestValue.put(key, "value-" + i);
                    latestOffset.put(key, sent.get(i).get().offset());
                }
            }
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, TOPIC);
            admin.incrementalAlterConfigs(Map.of(
                            topic,
                            List.of(new AlterConfigOp(
                                    new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.SET))))
                    .all()
                    .get();

            List<ConsumerRecord<String, String>> read = Poll.until(
                    "the cleaner removes superseded records",
                    Duration.ofSeconds(60),
                    () -> readFromBeginning(broker.bootstrap()),
                    r -> r.size() < WRITES / 2);

            Map<String, ConsumerRecord<String, String>> last = new HashMap<>();
            long previous = -1;
            for (ConsumerRecord<String, String> record : read) {
                assertTrue(record.offset() > previous, "offsets increase");
                previous = record.offset();
                last.put(record.key(), record);
            }
            assertEquals(KEYS, last.size());
            for (Map.Entry<String, ConsumerRecord<String, String>> e : last.entrySet()) {
                assertEquals(latestValue.get(e.getKey()), e.getValue().value(), e.getKey());
                assertEquals(latestOffset.get(e.getKey()), e.getValue().offset(), e.getKey() + " keeps its offset");
            }
        }
    }

    private static List<ConsumerRecord<String, String>> readFromBeginning(String bootstrap)
            throws InterruptedException {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4096);
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            Poll.until(
                    "records up to offset " + end,
                    Duration.ofSeconds(60),
                    () -> {
                        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                        return consumer.position(partition);
                    },
                    position -> position >= end);
            return records;
        }
    }
}
