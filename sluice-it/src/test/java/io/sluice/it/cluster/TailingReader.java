package io.sluice.it.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * A consumer that reads one partition from offset 0 on its own thread while a test changes the cluster, and records
 * every gap or repeat in the offsets it is handed (a consumer must see contiguous offsets, whoever leads). Retriable
 * errors are the client's to retry; anything else it throws is kept.
 *
 * <p>Thread-safe: the reading thread writes, the test thread reads after {@link #stop}.
 */
final class TailingReader implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(200);

    private final KafkaConsumer<String, String> consumer;
    private final Thread thread;
    private final AtomicLong nextOffset = new AtomicLong();
    private final List<String> anomalies = new ArrayList<>();
    private volatile boolean running = true;

    TailingReader(String bootstrap, TopicPartition partition) {
        this.consumer = ClusterClients.assignConsumer(bootstrap);
        consumer.assign(List.of(partition));
        consumer.seek(partition, 0);
        this.thread = new Thread(this::readUntilStopped, "tailing-reader-" + partition);
        this.thread.setDaemon(true);
    }

    TailingReader start() {
        thread.start();
        return this;
    }

    private void readUntilStopped() {
        while (running) {
            try {
                for (ConsumerRecord<String, String> r : consumer.poll(POLL)) {
                    long expected = nextOffset.get();
                    if (r.offset() != expected) {
                        synchronized (anomalies) {
                            anomalies.add("expected offset " + expected + ", got " + r.offset());
                        }
                    }
                    nextOffset.set(r.offset() + 1);
                }
            } catch (org.apache.kafka.common.errors.WakeupException e) {
                return;
            } catch (RuntimeException e) {
                synchronized (anomalies) {
                    anomalies.add("poll failed: " + e);
                }
            }
        }
    }

    /** The offset after the last record read. */
    long position() {
        return nextOffset.get();
    }

    void stop() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(Duration.ofSeconds(30).toMillis());
    }

    List<String> anomalies() {
        synchronized (anomalies) {
            return List.copyOf(anomalies);
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.close(Duration.ofSeconds(5));
    }
}
