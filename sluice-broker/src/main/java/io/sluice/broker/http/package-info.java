/**
 * The broker's HTTP listener, off unless {@code sluice.http.listener} is set: a read-only Netty HTTP server (Netty's
 * HTTP codec, bounded request line, headers and body) serving the Prometheus scrape at {@code /metrics}: the broker's
 * Kafka-named metrics ({@code io.sluice.broker.metrics.PrometheusBridge}) and the JVM's (memory, GC, threads, from the
 * Prometheus client's JVM instrumentation), written by the Prometheus client's text-format writer. The status page
 * will be served here too.
 */
package io.sluice.broker.http;
