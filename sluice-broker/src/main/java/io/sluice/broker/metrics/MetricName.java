package io.sluice.broker.metrics;

import java.util.List;
import java.util.Objects;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * A metric's Kafka name: JMX domain ({@code kafka.server}), {@code type}, {@code name} and further tags in Kafka's
 * order, e.g. {@code kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,topic=foo}.
 *
 * <p>Immutable.
 *
 * @param tags tag names and values alternating ({@code "topic", "foo", "partition", "0"})
 */
public record MetricName(String domain, String type, String name, List<String> tags) {
    public MetricName {
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        tags = List.copyOf(tags);
        if (tags.size() % 2 != 0) {
            throw new IllegalArgumentException("tags of " + domain + ":" + type + "." + name
                    + " must be name/value pairs, got " + tags);
        }
    }

    /** A name with tags given as name/value pairs. */
    public static MetricName of(String domain, String type, String name, String... tags) {
        return new MetricName(domain, type, name, List.of(tags));
    }

    /** The JMX name, tag values quoted where JMX needs it (as Kafka's KafkaMetricsGroup does). */
    public ObjectName objectName() {
        StringBuilder text = new StringBuilder(domain).append(":type=").append(type).append(",name=").append(name);
        for (int i = 0; i < tags.size(); i += 2) {
            text.append(',').append(tags.get(i)).append('=').append(quoteIfNeeded(tags.get(i + 1)));
        }
        try {
            return new ObjectName(text.toString());
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("not a valid JMX name: " + text, e);
        }
    }

    /** The value of tag {@code tagName}, or null. */
    public String tag(String tagName) {
        for (int i = 0; i < tags.size(); i += 2) {
            if (tags.get(i).equals(tagName)) {
                return tags.get(i + 1);
            }
        }
        return null;
    }

    private static String quoteIfNeeded(String value) {
        for (int i = 0; i < value.length(); i++) {
            switch (value.charAt(i)) {
                case ',', '=', ':', '*', '?', '"', '\n', '\\' -> {
                    return ObjectName.quote(value);
                }
                default -> { }
            }
        }
        return value;
    }

    @Override
    public String toString() {
        return objectName().toString();
    }
}
