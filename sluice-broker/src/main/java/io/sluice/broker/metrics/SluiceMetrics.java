package io.sluice.broker.metrics;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import io.sluice.cluster.controller.PublicationObserver;
import io.sluice.cluster.zk.SessionStateTracker;
import io.sluice.record.validate.ValidationObserver;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Sluice's own metrics, which Kafka has no names for, under the JMX domain {@value #DOMAIN} (and on /metrics as
 * {@code io_sluice_*}, named by the same rules as Kafka's):
 * <ul>
 *   <li>{@code io.sluice:type=ProduceValidation}: {@code RecompressedBatchesPerSec} (batches rewritten in the topic's
 *       codec), {@code PassedThroughBatchesPerSec} (stamped in place and stored as sent) and {@code TimeUs}, the
 *       validation time of each produce partition in microseconds;</li>
 *   <li>{@code io.sluice:type=ClusterStatePublication,kind=delta|snapshot} on the active controller:
 *       {@code SizeBytes} and {@code TimeUs} of each publication (encoding to last ZooKeeper write) and
 *       {@code PublishedBytesPerSec}, the bytes written for them;</li>
 *   <li>{@code io.sluice:type=ZooKeeperSession}: {@code State} (0 connected, 1 suspended, 2 lost) and
 *       {@code ExpirationsPerSec} (sessions lost).</li>
 * </ul>
 * Times and sizes are histograms like Kafka's ({@link RecentHistogram}: percentiles, not averages).
 *
 * <p>Thread-safe.
 */
public final class SluiceMetrics implements ValidationObserver, PublicationObserver {
    public static final String DOMAIN = "io.sluice";
    public static final String VALIDATION = "ProduceValidation";
    public static final String PUBLICATION = "ClusterStatePublication";
    public static final String ZOOKEEPER_SESSION = "ZooKeeperSession";

    private final KafkaMetrics metrics;
    private final KafkaMeter recompressed;
    private final KafkaMeter passedThrough;
    private final RecentHistogram validationMicros;
    private final Map<Kind, Publication> publications = new EnumMap<>(Kind.class);

    SluiceMetrics(KafkaMetrics metrics) {
        this.metrics = metrics;
        this.recompressed = metrics.meter(MetricName.of(DOMAIN, VALIDATION, "RecompressedBatchesPerSec"), "batches");
        this.passedThrough = metrics.meter(MetricName.of(DOMAIN, VALIDATION, "PassedThroughBatchesPerSec"), "batches");
        this.validationMicros = metrics.histogram(MetricName.of(DOMAIN, VALIDATION, "TimeUs"));
        for (Kind kind : Kind.values()) {
            publications.put(kind, new Publication(metrics, kind.name().toLowerCase(Locale.ROOT)));
        }
    }

    @Override
    public void validated(int batches, int recompressedBatches, long nanos) {
        long now = System.nanoTime(); // one clock read for the meters and the histogram
        if (recompressedBatches > 0) {
            recompressed.mark(recompressedBatches, now);
        }
        if (batches > recompressedBatches) {
            passedThrough.mark(batches - recompressedBatches, now);
        }
        validationMicros.update(TimeUnit.NANOSECONDS.toMicros(nanos), now);
    }

    @Override
    public void published(Kind kind, long bytes, long nanos) {
        publications.get(kind).record(bytes, nanos);
    }

    /** Shows the state and expirations of the broker's ZooKeeper session, as {@code tracker} follows it. */
    public void followZooKeeperSession(SessionStateTracker tracker) {
        metrics.gauge(
                MetricName.of(DOMAIN, ZOOKEEPER_SESSION, "State"),
                () -> tracker.state().code());
        Meter expirations = metrics.meter(MetricName.of(DOMAIN, ZOOKEEPER_SESSION, "ExpirationsPerSec"), "expirations");
        // The tracker counts from the start, so a session lost before this call is not missed, nor counted twice.
        Runnable catchUp = () -> {
            synchronized (expirations) {
                long behind = tracker.expirations() - expirations.getCount();
                if (behind > 0) {
                    expirations.mark(behind);
                }
            }
        };
        tracker.listen(state -> catchUp.run());
        catchUp.run();
    }

    /** The metrics of one kind of publication. */
    private static final class Publication {
        private final Histogram sizeBytes;
        private final Histogram micros;
        private final Meter bytes;

        Publication(KafkaMetrics metrics, String kind) {
            this.sizeBytes = metrics.histogram(MetricName.of(DOMAIN, PUBLICATION, "SizeBytes", "kind", kind));
            this.micros = metrics.histogram(MetricName.of(DOMAIN, PUBLICATION, "TimeUs", "kind", kind));
            this.bytes =
                    metrics.meter(MetricName.of(DOMAIN, PUBLICATION, "PublishedBytesPerSec", "kind", kind), "bytes");
        }

        void record(long written, long nanos) {
            sizeBytes.update(written);
            micros.update(TimeUnit.NANOSECONDS.toMicros(nanos));
            bytes.mark(written);
        }
    }
}
