package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Records with unique keys sent to chosen partitions, and the check that a read-back holds each of them exactly once,
 * in the partition it was sent to, with its value.
 *
 * <p>Thread-safe; stateless.
 */
final class KeyedRecords {
    private static final Duration POLL = Duration.ofMillis(200);
    /** Padding so the records fill batches the way real traffic does, not a few bytes each. */
    private static final String PADDING = "x".repeat(64);

    /** Where a record was sent and what it holds. */
    record Expected(int partition, String value) {}

    private KeyedRecords() {}

    /**
     * Sends {@code count} records keyed {@code <tag>-<i>}, record {@code i} to {@code partitions[i % size]}, and waits
     * until every one is acknowledged.
     *
     * @return key → where it was sent and its value, in send order
     */
    static Map<String, Expected> produce(
            KafkaProducer<String, String> producer, String topic, List<Integer> partitions, int count, String tag)
            throws Exception {
        Map<String, Expected> sent = new LinkedHashMap<>();
        List<Future<RecordMetadata>> acks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String key = tag + "-" + i;
            String value = "value-" + key + "-" + PADDING;
            int partition = partitions.get(i % partitions.size());
            sent.put(key, new Expected(partition, value));
            acks.add(producer.send(new ProducerRecord<>(topic, partition, key, value)));
        }
        producer.flush();
        for (Future<RecordMetadata> ack : acks) {
            ack.get(ClusterClients.REQUEST_TIMEOUT_MS * 6L, TimeUnit.MILLISECONDS);
        }
        return sent;
    }

    /** Every record of {@code partitions} from the beginning to the end offsets seen when reading starts. */
    static List<ConsumerRecord<String, String>> readAll(
            KafkaConsumer<String, String> consumer, Collection<TopicPartition> partitions, Duration timeout) {
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
        List<ConsumerRecord<String, String>> read = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!atEnd(consumer, ends)) {
            if (System.nanoTime() - deadline > 0) {
                Map<TopicPartition, Long> positions = new HashMap<>();
                for (TopicPartition p : partitions) {
                    positions.put(p, consumer.position(p));
                }
                fail("did not read to the end offsets " + ends + " within " + timeout + "; positions " + positions);
            }
            for (ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                if (record.offset() < ends.get(new TopicPartition(record.topic(), record.partition()))) {
                    read.add(record);
                }
            }
        }
        return read;
    }

    private static boolean atEnd(KafkaConsumer<String, String> consumer, Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            if (consumer.position(end.getKey()) < end.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** {@code read} holds exactly the {@code expected} records: each once, in its partition, with its value. */
    static void assertExactlyOnce(Map<String, Expected> expected, List<ConsumerRecord<String, String>> read) {
        Map<String, ConsumerRecord<String, String>> byKey = new HashMap<>();
        for (ConsumerRecord<String, String> record : read) {
            ConsumerRecord<String, String> earlier = byKey.put(record.key(), record);
            if (earlier != null) {
                fail("key " + record.key() + " read twice: partition " + earlier.partition() + " offset "
                        + earlier.offset() + " and partition " + record.partition() + " offset " + record.offset());
            }
            Expected e = expected.get(record.key());
            if (e == null) {
                fail("read a record never sent: key " + record.key() + " partition " + record.partition() + " offset "
                        + record.offset());
            }
            assertEquals(e.partition(), record.partition(), "partition of key " + record.key());
            assertEquals(e.value(), record.value(), "value of key " + record.key());
        }
        assertTrue(
                byKey.keySet().containsAll(expected.keySet()),
                () -> "missing " + missing(expected, byKey) + " of " + expected.size() + " records sent; read "
                        + read.size());
        assertEquals(expected.size(), read.size(), "records read");
    }

    private static String missing(Map<String, Expected> expected, Map<String, ?> read) {
        List<String> missing = new ArrayList<>();
        for (String key : expected.keySet()) {
            if (!read.containsKey(key)) {
                missing.add(key);
            }
        }
        return missing.size() + " keys, first " + missing.subList(0, Math.min(10, missing.size()));
    }

    /** {@code topic}'s partitions with the given numbers. */
    static List<TopicPartition> partitions(String topic, Collection<Integer> numbers) {
        List<TopicPartition> result = new ArrayList<>(numbers.size());
        for (int p : numbers) {
            result.add(new TopicPartition(topic, p));
        }
        return result;
    }
}
