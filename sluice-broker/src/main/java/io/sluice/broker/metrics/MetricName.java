package io.sluice.broker.metrics;

import java.util.List;
import java.util.Objects;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * A metric's Kafka name: JMX domain ({@code kafka.server}), {@code type}, {@code name} and further tags in Kafka's
 * order, e.g. {@code kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,topic=foo}. A metric that Kafka keeps in
 * its own metrics library (org.apache.kafka.common.metrics, shown by JmxReporter: the quota metrics) has no
 * {@code name} key: its MBean is {@code domain:type=<type>,<tags>} and {@code name} is the MBean's attribute, e.g.
 * attribute {@code byte-rate} of {@code kafka.server:type=Produce,client-id=app} ({@link #attribute}).
 *
 * <p>Immutable.
 *
 * @param tags            tag names and values alternating ({@code "topic", "foo", "partition", "0"})
 * @param nameIsAttribute true for Kafka's metrics library form: no {@code name} key, {@code name} is the attribute
 */
public record MetricName(String domain, String type, String name, List<String> tags, boolean nameIsAttribute) {
    /** A name with a {@code name} key (Kafka's Yammer metrics). */
    public MetricName(String domain, String type, String name, List<String> tags) {
        this(domain, type, name, tags, false);
    }

    public MetricName {
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        tags = List.copyOf(tags);
        if (tags.size() % 2 != 0) {
            throw new IllegalArgumentException(
                    "tags of " + domain + ":" + type + "." + name + " must be name/value pairs, got " + tags);
        }
    }

    /** A name with tags given as name/value pairs. */
    public static MetricName of(String domain, String type, String name, String... tags) {
        return new MetricName(domain, type, name, List.of(tags));
    }

    /**
     * Attribute {@code attribute} of the MBean {@code domain:type=<type>,<tags>} (Kafka's metrics library through its
     * JmxReporter, which leaves out tags with empty values: so do callers).
     */
    public static MetricName attribute(String domain, String type, String attribute, String... tags) {
        return new MetricName(domain, type, attribute, List.of(tags), true);
    }

    /** The JMX name, tag values quoted where JMX needs it (as Kafka's KafkaMetricsGroup does). */
    public ObjectName objectName() {
        StringBuilder text = new StringBuilder(domain).append(":type=").append(type);
        if (!nameIsAttribute) {
            text.append(",name=").append(name);
        }
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
                default -> {}
            }
        }
        return value;
    }

    @Override
    public String toString() {
        return nameIsAttribute ? objectName() + "/" + name : objectName().toString();
    }
}
