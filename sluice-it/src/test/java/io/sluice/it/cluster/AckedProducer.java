package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A producer that writes keyed records {@code <tag>-<n>} to one topic from its own thread until stopped, and keeps
 * what a fault test checks afterwards: which keys were acknowledged, and every error the client surfaced (after its
 * own retries), split into retriable and non-retriable.
 *
 * <p>Thread-safe: the sending thread writes, the test thread reads after {@link #stop}.
 */
final class AckedProducer implements AutoCloseable {
    private final KafkaProducer<String, String> producer;
    private final String topic;
    private final String tag;
    private final Set<String> acked = ConcurrentHashMap.newKeySet();
    private final Set<String> sent = ConcurrentHashMap.newKeySet();
    private final Map<String, Exception> nonRetriable = new ConcurrentHashMap<>();
    private final AtomicLong retriableErrors = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    AckedProducer(String bootstrap, String topic, String tag, String acks) {
        this(bootstrap, topic, tag, acks, Map.of());
    }

    /** With {@code extra} producer settings on top (compression, batch size). */
    AckedProducer(String bootstrap, String topic, String tag, String acks, Map<String, String> extra) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.ACKS_CONFIG, acks);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "180000");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "60000");
        props.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, "200");
        // A test broker restarts on a new ephemeral port (a real one keeps its port): refresh the cluster's addresses
        // often, or after every broker restarted in turn the producer knows only dead addresses and stalls.
        props.put(ProducerConfig.METADATA_MAX_AGE_CONFIG, "500");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "sluice-replication-it-" + tag);
        props.putAll(extra);
        this.producer = new KafkaProducer<>(props);
        this.topic = topic;
        this.tag = tag;
        this.thread = new Thread(this::sendUntilStopped, "acked-producer-" + tag);
        this.thread.setDaemon(true);
    }

    AckedProducer start() {
        thread.start();
        return this;
    }

    private void sendUntilStopped() {
        long n = 0;
        while (running) {
            String key = tag + "-" + n++;
            sent.add(key);
            try {
                // A failed send reaches the callback, which counts or keeps it for the test's assertions.
                var unused = producer.send(new ProducerRecord<>(topic, key, "value-of-" + key), (metadata, error) -> {
                    if (error == null) {
                        acked.add(key);
                    } else if (error instanceof RetriableException) {
                        retriableErrors.incrementAndGet();
                    } else {
                        nonRetriable.put(key, error);
                    }
                });
            } catch (RuntimeException e) {
                nonRetriable.put(key, e);
            }
            if (n % 50 == 0) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    int ackedCount() {
        return acked.size();
    }

    /** Stops sending and waits until every record sent is acknowledged or failed. */
    void stop(Duration timeout) throws InterruptedException {
        running = false;
        thread.join(timeout.toMillis());
        producer.flush();
        producer.close(Duration.ofSeconds(30));
    }

    Set<String> acked() {
        return Set.copyOf(acked);
    }

    Set<String> sent() {
        return Set.copyOf(sent);
    }

    Map<String, Exception> nonRetriableErrors() {
        return Map.copyOf(nonRetriable);
    }

    long retriableErrors() {
        return retriableErrors.get();
    }

    List<String> firstNonRetriable(int n) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Exception> e : nonRetriable.entrySet()) {
            if (out.size() == n) {
                break;
            }
            out.add(e.getKey() + ": " + e.getValue());
        }
        return out;
    }

    /**
     * {@code read} (a partition read back after {@link #stop}) holds every key this producer had acknowledged, no key
     * twice, and no key it never sent, each with its value.
     */
    void assertEveryAckedKeyReadOnce(List<ConsumerRecord<String, String>> read) {
        Map<String, Long> offsets = new HashMap<>();
        Set<String> sentKeys = sent();
        for (ConsumerRecord<String, String> r : read) {
            Long earlier = offsets.put(r.key(), r.offset());
            if (earlier != null) {
                fail("key " + r.key() + " read twice, at offsets " + earlier + " and " + r.offset());
            }
            assertTrue(sentKeys.contains(r.key()), "read a key never sent: " + r.key());
            assertEquals("value-of-" + r.key(), r.value());
        }
        Set<String> ackedKeys = acked();
        for (String key : ackedKeys) {
            assertTrue(
                    offsets.containsKey(key),
                    () -> "acknowledged key " + key + " was lost; read " + read.size() + " records, " + ackedKeys.size()
                            + " acknowledged");
        }
    }

    @Override
    public void close() {
        running = false;
        producer.close(Duration.ofSeconds(5));
    }
}
