package io.sluice.broker.metrics;

import com.codahale.metrics.Meter;
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
    private final Meter allTopics;
    private final Map<String, Meter> byTopic = new ConcurrentHashMap<>();
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
        forTopic(topic).mark(count);
        allTopics.mark(count);
    }

    public String name() {
        return name;
    }

    public Meter allTopics() {
        return allTopics;
    }

    public Meter forTopic(String topic) {
        Meter meter = byTopic.get(topic);
        if (meter != null) {
            return meter;
        }
        onNewTopic.accept(topic);
        return addTopic(topic);
    }

    Meter addTopic(String topic) {
        return byTopic.computeIfAbsent(topic, t -> metrics.meter(BrokerTopicMetrics.name(name, t), eventType));
    }

    void removeTopic(String topic) {
        if (byTopic.remove(topic) != null) {
            metrics.remove(BrokerTopicMetrics.name(name, topic));
        }
    }
}
