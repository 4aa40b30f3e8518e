package io.sluice.broker.quota;

import io.sluice.broker.metrics.KafkaMetrics;
import io.sluice.broker.metrics.MetricName;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.LongToDoubleFunction;

/**
 * Kafka's client quota metrics, as its ClientQuotaManager registers them in its own metrics library and JmxReporter
 * shows them: per group of clients sharing a quota, the MBean {@code kafka.server:type=Produce|Fetch|Request} tagged
 * {@code user} and {@code client-id} (a tag whose value is empty, as the user tag of a client-id quota, is left out:
 * {@code kafka.server:type=Produce,client-id=app}) with the attributes {@code byte-rate} (Produce, Fetch; bytes per
 * second) or {@code request-time} (Request; percent of a handler thread), and {@code throttle-time} (the average
 * throttle given over the quota window, NaN when none was). On Prometheus: {@code kafka_server_produce_byte_rate
 * {user="alice",client_id="app"}} and so on.
 *
 * <p>Thread-safe.
 */
public final class QuotaMetrics {
    /** Publishes nothing (tests, and a broker without metrics). */
    static final QuotaMetrics NONE = new QuotaMetrics(null, () -> 0L);

    static final String DOMAIN = "kafka.server";
    static final String THROTTLE_TIME = "throttle-time";
    static final String USER_TAG = "user";
    static final String CLIENT_ID_TAG = "client-id";

    private final KafkaMetrics metrics;
    private final LongSupplier clockMs;

    /** @param metrics where the gauges go; null for none */
    public QuotaMetrics(KafkaMetrics metrics, LongSupplier clockMs) {
        this.metrics = metrics;
        this.clockMs = clockMs;
    }

    /** The name of one quota metric of a group ({@code user} or {@code clientId} empty when not a tag of it). */
    public static MetricName name(QuotaType type, String metric, String user, String clientId) {
        List<String> tags = new ArrayList<>(4);
        if (!user.isEmpty()) {
            tags.add(USER_TAG);
            tags.add(user);
        }
        if (!clientId.isEmpty()) {
            tags.add(CLIENT_ID_TAG);
            tags.add(clientId);
        }
        return MetricName.attribute(DOMAIN, type.mbeanType(), metric, tags.toArray(new String[0]));
    }

    void add(QuotaType type, ClientQuotaManager.Group group, LongToDoubleFunction rate, LongToDoubleFunction throttle) {
        if (metrics == null) {
            return;
        }
        metrics.gauge(
                name(type, type.rateMetric(), group.user(), group.clientId()),
                () -> rate.applyAsDouble(clockMs.getAsLong()));
        metrics.gauge(
                name(type, THROTTLE_TIME, group.user(), group.clientId()),
                () -> throttle.applyAsDouble(clockMs.getAsLong()));
    }

    void remove(QuotaType type, ClientQuotaManager.Group group) {
        if (metrics == null) {
            return;
        }
        metrics.remove(name(type, type.rateMetric(), group.user(), group.clientId()));
        metrics.remove(name(type, THROTTLE_TIME, group.user(), group.clientId()));
    }
}
