/**
 * The broker's metrics under Apache Kafka's names, so the JMX dashboards and jmx_exporter rules written for Kafka
 * work unchanged, and the same values for the Prometheus endpoint ({@code io.sluice.broker.http}).
 *
 * <p><b>Why Dropwizard Metrics.</b> Kafka's broker metrics are Yammer Metrics 2 meters, histograms and gauges; their
 * JMX attributes (Count, MeanRate, One/Five/FifteenMinuteRate, RateUnit, EventType; Min, Max, Mean, StdDev,
 * 50thPercentile..999thPercentile; Value) are what every Kafka dashboard reads. Dropwizard Metrics
 * ({@code io.dropwizard.metrics:metrics-core}, 4.2) is Yammer's maintained successor: its {@code Meter} and
 * {@code Histogram} types and exponentially weighted moving averages, so the numbers mean what Kafka's mean.
 * Micrometer maps to JMX through hierarchical names and timers in its own units, and the Prometheus client has no
 * EWMA rates or windowed percentiles; both would need the Kafka shape rebuilt on top.
 *
 * <p><b>Why HdrHistogram, and two metric classes of our own.</b> Metrics sit on the produce and fetch hot path (issue
 * 16: under 3% of broker CPU per record). Profiled, Dropwizard's exponentially decaying reservoir cost most of it:
 * every sample computed an exponential and allocated a skip-list entry, five to ten times per request. {@link
 * RecentHistogram} keeps a histogram's values in HdrHistogram ({@code org.hdrhistogram:HdrHistogram}, Gil Tene's
 * library, also behind Cassandra's and Micrometer's percentiles): recording is a few uncontended atomic adds with no
 * allocation, percentiles are read from a real histogram of the last minute's values (two significant digits), not
 * averages. {@link KafkaMeter} is Dropwizard's meter with the same ticks and rates whose mark is one add instead of
 * four plus a clock read. Both stay Dropwizard types, so the JMX views and the Prometheus bridge read them unchanged;
 * a request reads the clock once for all its meters and histograms.
 * The JMX side is three small standard-MBean views ({@link MetricBeans}) over the Dropwizard metrics, which gives
 * Kafka's attribute set exactly (metrics-jmx lacks EventType and adds attributes Kafka has not); the Prometheus side
 * ({@link PrometheusBridge}) turns the same metrics into the Prometheus Java client's data model, named as the
 * jmx_exporter Kafka rules name them, and the client's own writer prints them.
 *
 * <p><b>Entry points.</b> {@link KafkaMetrics} owns every metric of one broker (JMX registration and removal);
 * {@link BrokerTopicMetrics}, {@link RequestMetrics} and {@link BrokerGauges} are the Kafka groups on top of it.
 * Later groups register through {@link KafkaMetrics#meter}, {@link KafkaMetrics#gauge},
 * {@link BrokerTopicMetrics#allTopicsMeter} (KIP-352's reassignment bytes) and {@link BrokerTopicMetrics#meterFamily};
 * docs/metrics.md shows the KIP-352 wiring. Sluice's own metrics, which Kafka has no names for, are
 * {@link SluiceMetrics} under the {@code io.sluice} domain; Kafka's socket-server metrics are
 * {@link SocketServerMetrics} (kept by kafka-clients' metrics library, whose MBean shape they have) and
 * {@link NetworkIdleMetrics}. docs/status-page.md lists them.
 */
package io.sluice.broker.metrics;
