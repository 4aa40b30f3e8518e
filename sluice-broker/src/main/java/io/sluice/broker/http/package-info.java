/**
 * The broker's HTTP listener, off unless {@code sluice.http.listener} is set: a read-only Netty HTTP server (Netty's
 * HTTP codec, bounded request line, headers and body) serving the Prometheus scrape at {@code /metrics} (the broker's
 * Kafka-named metrics through {@code io.sluice.broker.metrics.PrometheusBridge} and the JVM's, written by the
 * Prometheus client's text-format writer), the status page at {@code /} ({@link io.sluice.broker.http.StaticResources})
 * and its JSON under {@code /api/} ({@code StatusApi}, {@code ClusterJson}, {@code ThroughputHistory}, gathered
 * across brokers by {@code PeerFanOut}). {@link io.sluice.broker.http.BrokerStatus} wires it with consumer lag;
 * docs/status-page.md describes the endpoints.
 */
package io.sluice.broker.http;
