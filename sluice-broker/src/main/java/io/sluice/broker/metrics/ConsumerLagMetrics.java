package io.sluice.broker.metrics;

import io.sluice.broker.group.GroupLag;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Consumer lag of the groups this broker coordinates, as gauges named like kafka_exporter's (the exporter Kafka
 * dashboards read lag from), so its Grafana panels work against {@code /metrics}:
 * <ul>
 *   <li>{@code kafka:type=consumergroup,name=lag,consumergroup=G,topic=T,partition=P}, on Prometheus
 *       {@code kafka_consumergroup_lag{consumergroup,topic,partition}}: high watermark minus committed offset;</li>
 *   <li>{@code ...name=current_offset,...}: {@code kafka_consumergroup_current_offset}, the committed offset;</li>
 *   <li>{@code kafka:type=consumergroup,name=lag_sum,consumergroup=G,topic=T}: {@code kafka_consumergroup_lag_sum},
 *       the lag summed over the group's partitions of the topic.</li>
 * </ul>
 * {@link #sync()} adds the gauges of new group partitions and removes those of partitions no longer committed or
 * groups no longer coordinated here. Gauges read one shared reading of every group's lag, taken again when older
 * than {@link #READING_TTL}, so a scrape computes lag once, not once per gauge.
 *
 * <p>Thread-safe; {@link #sync()} is synchronized (one scheduler calls it).
 */
public final class ConsumerLagMetrics {
    public static final String DOMAIN = "kafka";
    public static final String TYPE = "consumergroup";
    /** A scrape reads every lag gauge within this; a reading older than this is taken again. */
    static final Duration READING_TTL = Duration.ofSeconds(1);

    private final KafkaMetrics metrics;
    private final Supplier<List<GroupLag>> lags;
    private final LongSupplier nanoClock;
    private final Set<MetricName> registered = new HashSet<>();
    private volatile Reading reading = new Reading(Long.MIN_VALUE, Map.of(), Map.of());

    /** One reading: lag and committed offset per (group, topic, partition) and lag sums per (group, topic). */
    private record Reading(long takenNanos, Map<MetricName, Long> partitionValues, Map<MetricName, Long> sums) {}

    public ConsumerLagMetrics(KafkaMetrics metrics, Supplier<List<GroupLag>> lags, LongSupplier nanoClock) {
        this.metrics = metrics;
        this.lags = lags;
        this.nanoClock = nanoClock;
    }

    public static MetricName lag(String group, String topic, int partition) {
        return MetricName.of(
                DOMAIN, TYPE, "lag", "consumergroup", group, "topic", topic, "partition", Integer.toString(partition));
    }

    public static MetricName currentOffset(String group, String topic, int partition) {
        return MetricName.of(
                DOMAIN,
                TYPE,
                "current_offset",
                "consumergroup",
                group,
                "topic",
                topic,
                "partition",
                Integer.toString(partition));
    }

    public static MetricName lagSum(String group, String topic) {
        return MetricName.of(DOMAIN, TYPE, "lag_sum", "consumergroup", group, "topic", topic);
    }

    /** Registers the gauges of every group partition with a committed offset, removes the gone ones. */
    public synchronized void sync() {
        Reading now = takeReading();
        Set<MetricName> current = new HashSet<>(now.partitionValues().keySet());
        current.addAll(now.sums().keySet());
        for (MetricName name : current) {
            if (registered.add(name)) {
                metrics.gauge(name, () -> valueOf(name));
            }
        }
        for (MetricName name : Set.copyOf(registered)) {
            if (!current.contains(name)) {
                metrics.remove(name);
                registered.remove(name);
            }
        }
    }

    /** The gauge's value from a fresh enough reading; null (NaN on Prometheus) when it is unknown now. */
    private Long valueOf(MetricName name) {
        Reading current = reading;
        if (nanoClock.getAsLong() - current.takenNanos() > READING_TTL.toNanos()) {
            current = takeReading();
        }
        Long value = current.partitionValues().get(name);
        return value != null ? value : current.sums().get(name);
    }

    private Reading takeReading() {
        Map<MetricName, Long> values = new HashMap<>();
        Map<MetricName, Long> sums = new HashMap<>();
        for (GroupLag group : lags.get()) {
            for (GroupLag.PartitionLag p : group.partitions()) {
                values.put(currentOffset(group.groupId(), p.topic(), p.partition()), p.committedOffset());
                if (p.isKnown()) {
                    values.put(lag(group.groupId(), p.topic(), p.partition()), p.lag());
                    sums.merge(lagSum(group.groupId(), p.topic()), p.lag(), Long::sum);
                }
            }
        }
        Reading taken = new Reading(nanoClock.getAsLong(), values, sums);
        reading = taken;
        return taken;
    }
}
