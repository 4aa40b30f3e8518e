package io.sluice.broker.metrics;

import com.codahale.metrics.Snapshot;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The broker's Kafka metrics in the Prometheus Java client's data model, named as the jmx_exporter Kafka rules
 * (lowercased output and label names) name them, so dashboards built on jmx_exporter read this endpoint unchanged:
 * <ul>
 *   <li>a meter {@code kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,topic=t} is the counter
 *       {@code kafka_server_brokertopicmetrics_bytesin_total{topic="t"}} (its Count; rates are Prometheus' job);</li>
 *   <li>a histogram {@code kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce} is the summary
 *       {@code kafka_network_requestmetrics_totaltime{request="Produce",quantile="0.99"}} with its
 *       {@code _count}, quantiles 0.5, 0.75, 0.95, 0.98, 0.99 and 0.999 from the same histogram as JMX;</li>
 *   <li>a gauge {@code kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions} is the gauge
 *       {@code kafka_server_replicamanager_underreplicatedpartitions}.</li>
 * </ul>
 *
 * <p>Thread-safe: each scrape reads the metrics afresh.
 */
public final class PrometheusBridge implements MultiCollector {
    private static final double[] QUANTILES = {0.5, 0.75, 0.95, 0.98, 0.99, 0.999};
    private static final String RATE_SUFFIX = "PerSec";
    private static final String MILLIS_SUFFIX = "Ms";
    private static final String[] DASHED_SUFFIXES_DROPPED = {"-ms", "-count"};

    private final KafkaMetrics metrics;

    public PrometheusBridge(KafkaMetrics metrics) {
        this.metrics = metrics;
    }

    /** The Prometheus family name of a metric (without the {@code _total} a counter is written with). */
    public static String familyName(MetricName name, KafkaMetrics.Entry kind) {
        String shortName = name.name();
        if (kind instanceof KafkaMetrics.MeterEntry && shortName.endsWith(RATE_SUFFIX)) {
            shortName = shortName.substring(0, shortName.length() - RATE_SUFFIX.length());
        } else if (kind instanceof KafkaMetrics.HistogramEntry && shortName.endsWith(MILLIS_SUFFIX)) {
            shortName = shortName.substring(0, shortName.length() - MILLIS_SUFFIX.length());
        } else {
            // Kafka's dashed names (time-since-last-run-ms, uncleanable-partitions-count): Prometheus' lint refuses
            // abbreviated units and a _count suffix outside summaries and histograms
            for (String suffix : DASHED_SUFFIXES_DROPPED) {
                if (shortName.endsWith(suffix)) {
                    shortName = shortName.substring(0, shortName.length() - suffix.length());
                    break;
                }
            }
        }
        String text = (name.domain() + "_" + name.type() + "_" + shortName).toLowerCase(Locale.ROOT);
        return text.replaceAll("[^a-z0-9_]", "_");
    }

    @Override
    public MetricSnapshots collect() {
        Map<String, Family> families = new TreeMap<>();
        metrics.forEach((name, entry) -> families.computeIfAbsent(familyName(name, entry), f -> new Family(entry, name))
                .add(name, entry));
        List<MetricSnapshot> snapshots = new ArrayList<>(families.size());
        families.forEach((familyName, family) -> snapshots.add(family.build(familyName)));
        return new MetricSnapshots(snapshots);
    }

    private static Labels labels(MetricName name) {
        List<String> tags = name.tags();
        String[] names = new String[tags.size() / 2];
        String[] values = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            // Kafka's client-id tag is client_id: Prometheus label names take no dash
            names[i] = tags.get(2 * i).toLowerCase(Locale.ROOT).replace('-', '_');
            values[i] = tags.get(2 * i + 1);
        }
        return Labels.of(names, values);
    }

    /** The data points of one family; all of one kind (a name reused across kinds keeps the first kind's). */
    private static final class Family {
        private final Class<? extends KafkaMetrics.Entry> kind;
        private final String help;
        private final List<CounterSnapshot.CounterDataPointSnapshot> counters = new ArrayList<>();
        private final List<GaugeSnapshot.GaugeDataPointSnapshot> gauges = new ArrayList<>();
        private final List<SummarySnapshot.SummaryDataPointSnapshot> summaries = new ArrayList<>();

        Family(KafkaMetrics.Entry first, MetricName name) {
            this.kind = first.getClass();
            String attribute = first instanceof KafkaMetrics.GaugeEntry
                    ? "Value"
                    : first instanceof KafkaMetrics.MeterEntry ? "Count" : "percentiles and Count";
            this.help = name.nameIsAttribute()
                    ? "Kafka's " + name.domain() + ":type=" + name.type() + " attribute " + name.name()
                    : "Kafka's " + name.domain() + ":type=" + name.type() + ",name=" + name.name() + " " + attribute;
        }

        void add(MetricName name, KafkaMetrics.Entry entry) {
            if (entry.getClass() != kind) {
                return;
            }
            Labels labels = labels(name);
            if (entry instanceof KafkaMetrics.MeterEntry meter) {
                counters.add(CounterSnapshot.CounterDataPointSnapshot.builder()
                        .labels(labels)
                        .value(meter.meter().getCount())
                        .build());
            } else if (entry instanceof KafkaMetrics.HistogramEntry histogram) {
                Snapshot snapshot = histogram.histogram().getSnapshot();
                Quantiles.Builder quantiles = Quantiles.builder();
                for (double q : QUANTILES) {
                    quantiles.quantile(q, snapshot.getValue(q));
                }
                summaries.add(SummarySnapshot.SummaryDataPointSnapshot.builder()
                        .labels(labels)
                        .quantiles(quantiles.build())
                        .count(histogram.histogram().getCount())
                        .build());
            } else {
                gauges.add(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                        .labels(labels)
                        .value(read((KafkaMetrics.GaugeEntry) entry))
                        .build());
            }
        }

        /** A gauge that cannot be read (its partition just went away) is NaN; it never fails the whole scrape. */
        private static double read(KafkaMetrics.GaugeEntry gauge) {
            try {
                Number value = gauge.value().get();
                return value == null ? Double.NaN : value.doubleValue();
            } catch (RuntimeException e) {
                return Double.NaN;
            }
        }

        MetricSnapshot build(String familyName) {
            if (kind == KafkaMetrics.MeterEntry.class) {
                CounterSnapshot.Builder builder =
                        CounterSnapshot.builder().name(familyName).help(help);
                counters.forEach(builder::dataPoint);
                return builder.build();
            }
            if (kind == KafkaMetrics.HistogramEntry.class) {
                SummarySnapshot.Builder builder =
                        SummarySnapshot.builder().name(familyName).help(help);
                summaries.forEach(builder::dataPoint);
                return builder.build();
            }
            GaugeSnapshot.Builder builder =
                    GaugeSnapshot.builder().name(familyName).help(help);
            gauges.forEach(builder::dataPoint);
            return builder.build();
        }
    }
}
