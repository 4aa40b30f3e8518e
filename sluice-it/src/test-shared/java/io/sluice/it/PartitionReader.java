package io.sluice.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads whole partitions with an {@code assign()}ed consumer: from the beginning up to the end offsets seen when
 * reading starts, within a deadline.
 *
 * <p>Not thread-safe; one per test, used with a consumer owned by the calling thread.
 */
final class PartitionReader {

    private static final Duration POLL = Duration.ofMillis(200);

    private PartitionReader() {}

    /** All records of {@code partitions}, per partition in offset order; fails naming positions on timeout. */
    static Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> readAll(
            KafkaConsumer<byte[], byte[]> consumer, Collection<TopicPartition> partitions, Duration timeout) {
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> endOffsets = consumer.endOffsets(partitions);
        Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> records = new HashMap<>();
        for (TopicPartition partition : partitions) {
            records.put(partition, new ArrayList<>());
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!reachedEnd(consumer, endOffsets)) {
            if (System.nanoTime() > deadline) {
                Map<TopicPartition, Long> positions = new HashMap<>();
                for (TopicPartition partition : partitions) {
                    positions.put(partition, consumer.position(partition));
                }
                fail("did not read to the end offsets " + endOffsets + " within " + timeout + "; positions "
                        + positions);
            }
            ConsumerRecords<byte[], byte[]> batch = consumer.poll(POLL);
            for (ConsumerRecord<byte[], byte[]> record : batch) {
                TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                if (record.offset() < endOffsets.get(partition)) {
                    records.get(partition).add(record);
                }
            }
        }
        for (Map.Entry<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> partition : records.entrySet()) {
            List<ConsumerRecord<byte[], byte[]>> read = partition.getValue();
            long end = endOffsets.get(partition.getKey());
            if (!read.isEmpty() && read.get(read.size() - 1).offset() != end - 1) {
                fail("read " + partition.getKey() + " to position " + consumer.position(partition.getKey())
                        + " (end offset " + end + ") but the last record returned is at offset "
                        + read.get(read.size() - 1).offset() + " after " + read.size() + " records");
            }
        }
        return records;
    }

    private static boolean reachedEnd(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> endOffsets) {
        for (Map.Entry<TopicPartition, Long> end : endOffsets.entrySet()) {
            if (consumer.position(end.getKey()) < end.getValue()) {
                return false;
            }
        }
        return true;
    }

    static List<TopicPartition> partitions(String topic, int count) {
        List<TopicPartition> partitions = new ArrayList<>(count);
        for (int p = 0; p < count; p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        return partitions;
    }
}
