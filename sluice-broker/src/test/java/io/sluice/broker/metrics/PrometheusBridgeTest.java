package io.sluice.broker.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Kafka metrics as the jmx_exporter Kafka rules name them, in the Prometheus client's model and text format. */
class PrometheusBridgeTest {
    private final KafkaMetrics metrics = new KafkaMetrics(null);
    private final PrometheusBridge bridge = new PrometheusBridge(metrics);

    @AfterEach
    void close() {
        metrics.close();
    }

    private MetricSnapshot family(String name) {
        for (MetricSnapshot snapshot : bridge.collect()) {
            if (snapshot.getMetadata().getName().equals(name)) {
                return snapshot;
            }
        }
        throw new AssertionError("no family " + name);
    }

    @Test
    void shouldTurnMetersIntoCountersWithTheirTagsAsLabels() {
        BrokerTopicMetrics topics = new BrokerTopicMetrics(metrics);
        topics.onAppended("orders", 3, 300);
        CounterSnapshot bytesIn = (CounterSnapshot) family("kafka_server_brokertopicmetrics_bytesin");
        assertEquals(2, bytesIn.getDataPoints().size(), "all topics and orders");
        for (CounterSnapshot.CounterDataPointSnapshot point : bytesIn.getDataPoints()) {
            assertEquals(300.0, point.getValue());
        }
        assertTrue(bytesIn.getDataPoints().stream()
                .anyMatch(p -> "orders".equals(p.getLabels().get("topic"))));
    }

    @Test
    void shouldTurnTimeHistogramsIntoSummariesWithKafkasPercentiles() {
        new RequestMetrics(metrics)
                .of(org.apache.kafka.common.protocol.ApiKeys.PRODUCE)
                .record((short) 9, 0, 5_000_000, 0, 0);
        SummarySnapshot total = (SummarySnapshot) family("kafka_network_requestmetrics_totaltime");
        SummarySnapshot.SummaryDataPointSnapshot point = total.getDataPoints().stream()
                .filter(p -> "Produce".equals(p.getLabels().get("request")))
                .findFirst()
                .orElseThrow();
        assertEquals(1, point.getCount());
        assertEquals(6, point.getQuantiles().size());
        assertEquals(5.0, point.getQuantiles().get(5).getValue(), "the 99.9th percentile of one 5 ms request");
    }

    @Test
    void shouldTurnGaugesIntoGaugesAndLowercaseLabelNames() throws Exception {
        metrics.gauge(MetricName.of("kafka.server", "ReplicaFetcherManager", "MaxLag", "clientId", "Replica"), () -> 7);
        GaugeSnapshot maxLag = (GaugeSnapshot) family("kafka_server_replicafetchermanager_maxlag");
        assertEquals(7.0, maxLag.getDataPoints().get(0).getValue());
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(text, new MetricSnapshots(maxLag));
        assertTrue(
                text.toString(StandardCharsets.UTF_8)
                        .contains("kafka_server_replicafetchermanager_maxlag{clientid=\"Replica\"} 7.0"),
                text.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldShowAGaugeThatCannotBeReadAsNaNAndKeepTheRest() {
        metrics.gauge(BrokerGauges.log("Size", "gone", 0), () -> {
            throw new IllegalStateException("log closed");
        });
        metrics.gauge(BrokerGauges.log("Size", "kept", 0), () -> 12);
        GaugeSnapshot size = (GaugeSnapshot) family("kafka_log_log_size");
        for (GaugeSnapshot.GaugeDataPointSnapshot point : size.getDataPoints()) {
            assertEquals("gone".equals(point.getLabels().get("topic")) ? Double.NaN : 12.0, point.getValue());
        }
        assertEquals(2, size.getDataPoints().size());
    }
}
