package io.sluice.broker.metrics;

import com.codahale.metrics.Meter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Kafka's {@code kafka.server:type=BrokerTopicMetrics}: records and bytes in (appended as leader), bytes out (to
 * consumers; followers' fetches are replication), produce and fetch requests per partition, and the failed ones,
 * each for all topics and per topic. A deleted topic's meters go with it, as in Kafka.
 *
 * <p>Thread-safe; marking takes no lock and allocates nothing once a topic's meters exist.
 */
public final class BrokerTopicMetrics {
    public static final String DOMAIN = "kafka.server";
    public static final String TYPE = "BrokerTopicMetrics";

    private final KafkaMetrics metrics;
    /** False when metrics are disabled: the on* methods return at once (the meters exist and stay at zero). */
    private final boolean enabled;

    private final List<MeterFamily> families = new CopyOnWriteArrayList<>();
    private final MeterFamily messagesIn;
    private final MeterFamily bytesIn;
    private final MeterFamily bytesOut;
    private final MeterFamily totalProduceRequests;
    private final MeterFamily failedProduceRequests;
    private final MeterFamily totalFetchRequests;
    private final MeterFamily failedFetchRequests;
    /** Each topic's built-in meters, found with one map read per request instead of one per meter. */
    private final Map<String, TopicMeters> byTopic = new ConcurrentHashMap<>();

    public BrokerTopicMetrics(KafkaMetrics metrics) {
        this(metrics, true);
    }

    /** @param enabled false: marking does nothing ({@code sluice.metrics.enable=false}) */
    public BrokerTopicMetrics(KafkaMetrics metrics, boolean enabled) {
        this.metrics = metrics;
        this.enabled = enabled;
        this.messagesIn = meterFamily("MessagesInPerSec", "messages");
        this.bytesIn = meterFamily("BytesInPerSec", "bytes");
        this.bytesOut = meterFamily("BytesOutPerSec", "bytes");
        this.totalProduceRequests = meterFamily("TotalProduceRequestsPerSec", "requests");
        this.failedProduceRequests = meterFamily("FailedProduceRequestsPerSec", "requests");
        this.totalFetchRequests = meterFamily("TotalFetchRequestsPerSec", "requests");
        this.failedFetchRequests = meterFamily("FailedFetchRequestsPerSec", "requests");
    }

    /** The name of meter {@code name} of {@code topic}, or of all topics when {@code topic} is null. */
    public static MetricName name(String name, String topic) {
        return topic == null ? MetricName.of(DOMAIN, TYPE, name) : MetricName.of(DOMAIN, TYPE, name, "topic", topic);
    }

    /**
     * A further meter of this group for all topics only (no per-topic meters), as Kafka keeps KIP-352's
     * ReassignmentBytesInPerSec and ReassignmentBytesOutPerSec (event type "bytes"); the same name gives the same meter.
     */
    public Meter allTopicsMeter(String name, String eventType) {
        return metrics.meter(name(name, null), eventType);
    }

    /**
     * A further meter of this group, for all topics and per topic (created with a topic's other meters, removed with
     * a deleted topic like the built-in ones); asking twice for a name gives the same family.
     */
    public synchronized MeterFamily meterFamily(String name, String eventType) {
        for (MeterFamily family : families) {
            if (family.name().equals(name)) {
                return family;
            }
        }
        MeterFamily family = new MeterFamily(metrics, name, eventType, this::addTopic);
        families.add(family);
        return family;
    }

    /** A leader appended {@code records} records of {@code bytes} bytes (as sent) to a partition of {@code topic}. */
    public void onAppended(String topic, long records, long bytes) {
        if (!enabled) {
            return;
        }
        long now = System.nanoTime(); // one clock read for the four meters
        TopicMeters meters = meters(topic);
        mark(messagesIn, meters.messagesIn, records, now);
        mark(bytesIn, meters.bytesIn, bytes, now);
    }

    /** One partition of a produce request to an existing topic, before it is appended. */
    public void onProduceRequest(String topic) {
        if (!enabled) {
            return;
        }
        mark(totalProduceRequests, meters(topic).totalProduceRequests, 1, System.nanoTime());
    }

    /** One partition of a produce request failed for a reason Kafka counts as failure (not a routing error). */
    public void onProduceFailed(String topic) {
        if (!enabled) {
            return;
        }
        mark(failedProduceRequests, meters(topic).failedProduceRequests, 1, System.nanoTime());
    }

    /**
     * What one fetch response says of {@code topic}, counted at once: {@code partitions} partitions asked,
     * {@code failed} of them failed unexpectedly, {@code sentBytes} record bytes sent to a consumer (0 for a follower).
     */
    public void onFetched(String topic, int partitions, int failed, long sentBytes, long nowNanos) {
        if (!enabled) {
            return;
        }
        TopicMeters meters = meters(topic);
        if (partitions > 0) {
            mark(totalFetchRequests, meters.totalFetchRequests, partitions, nowNanos);
        }
        if (failed > 0) {
            mark(failedFetchRequests, meters.failedFetchRequests, failed, nowNanos);
        }
        if (sentBytes > 0) {
            mark(bytesOut, meters.bytesOut, sentBytes, nowNanos);
        }
    }

    private static void mark(MeterFamily family, KafkaMeter topicMeter, long count, long nowNanos) {
        topicMeter.mark(count, nowNanos);
        family.allTopics().mark(count, nowNanos);
    }

    private TopicMeters meters(String topic) {
        TopicMeters meters = byTopic.get(topic);
        return meters != null ? meters : byTopic.computeIfAbsent(topic, TopicMeters::new);
    }

    /** Creates every per-topic meter of a topic at once, as Kafka's per-topic BrokerTopicMetrics does. */
    private void addTopic(String topic) {
        for (MeterFamily family : families) {
            family.addTopic(topic);
        }
    }

    /** Drops the per-topic meters of a deleted topic. */
    public void removeTopic(String topic) {
        byTopic.remove(topic);
        for (MeterFamily family : families) {
            family.removeTopic(topic);
        }
    }

    /** The built-in per-topic meters of one topic (creating it creates all of the topic's meters). Immutable. */
    private final class TopicMeters {
        final KafkaMeter messagesIn;
        final KafkaMeter bytesIn;
        final KafkaMeter bytesOut;
        final KafkaMeter totalProduceRequests;
        final KafkaMeter failedProduceRequests;
        final KafkaMeter totalFetchRequests;
        final KafkaMeter failedFetchRequests;

        TopicMeters(String topic) {
            this.messagesIn = BrokerTopicMetrics.this.messagesIn.forTopic(topic);
            this.bytesIn = BrokerTopicMetrics.this.bytesIn.forTopic(topic);
            this.bytesOut = BrokerTopicMetrics.this.bytesOut.forTopic(topic);
            this.totalProduceRequests = BrokerTopicMetrics.this.totalProduceRequests.forTopic(topic);
            this.failedProduceRequests = BrokerTopicMetrics.this.failedProduceRequests.forTopic(topic);
            this.totalFetchRequests = BrokerTopicMetrics.this.totalFetchRequests.forTopic(topic);
            this.failedFetchRequests = BrokerTopicMetrics.this.failedFetchRequests.forTopic(topic);
        }
    }
}
