package io.sluice.broker.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * One {@code kafka.server:type=BrokerTopicMetrics} meter in Kafka's two forms: for all topics (no topic tag) and
 * per topic ({@code topic=<name>}), the per-topic ones created on first use and cached, so marking costs a map read
 * and no allocation.
 *
 * <p>Thread-safe.
 */
public final class MeterFamily {
    private final KafkaMetrics metrics;
    private final String name;
    private final String eventType;
    private final KafkaMeter allTopics;
    private final Map<String, KafkaMeter> byTopic = new ConcurrentHashMap<>();
    /** Called for a topic this family sees first, so its group creates all of the topic's meters together. */
    private final Consumer<String> onNewTopic;

    MeterFamily(KafkaMetrics metrics, String name, String eventType, Consumer<String> onNewTopic) {
        this.metrics = metrics;
        this.onNewTopic = onNewTopic;
        this.name = name;
        this.eventType = eventType;
        this.allTopics = metrics.meter(BrokerTopicMetrics.name(name, null), eventType);
    }

    /** Marks {@code count} events of {@code topic}, counted for the topic and for all topics. */
    public void mark(String topic, long count) {
        mark(topic, count, System.nanoTime());
    }

    /** As {@link #mark(String, long)} at {@code nowNanos}, a {@link System#nanoTime()} reading. */
    void mark(String topic, long count, long nowNanos) {
        forTopic(topic).mark(count, nowNanos);
        allTopics.mark(count, nowNanos);
    }

    public String name() {
        return name;
    }

    public KafkaMeter allTopics() {
        return allTopics;
    }

    public KafkaMeter forTopic(String topic) {
        KafkaMeter meter = byTopic.get(topic);
        if (meter != null) {
            return meter;
        }
        onNewTopic.accept(topic);
        return addTopic(topic);
    }

    KafkaMeter addTopic(String topic) {
        return byTopic.computeIfAbsent(topic, t -> metrics.meter(BrokerTopicMetrics.name(name, t), eventType));
    }

    void removeTopic(String topic) {
        if (byTopic.remove(topic) != null) {
            metrics.remove(BrokerTopicMetrics.name(name, topic));
        }
    }
}
