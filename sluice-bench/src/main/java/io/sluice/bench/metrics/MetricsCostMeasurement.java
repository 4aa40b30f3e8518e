package io.sluice.bench.metrics;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What the broker's metrics cost on the hot path: two broker processes of the same build, one with
 * {@code sluice.metrics.enable=true}, one with false, driven alternately round by round by the same kafka-clients
 * producer and consumer settings; each phase (produce R records, then fetch them back P times, so that the cheaper
 * fetch phase runs about as long) is charged the broker process's CPU time (user + system, from /proc through
 * {@link ProcessHandle}) during that phase only. Prints each round's ratio on / off, then CPU microseconds per record
 * for each broker and phase over all rounds, the ratio of those totals and the median of the rounds' ratios.
 *
 * <p>Usage: {@code MetricsCostMeasurement [rounds] [recordsPerRound] [valueBytes] [fetchPasses]}. Not thread-safe;
 * a main.
 */
public final class MetricsCostMeasurement {
    private static final String TOPIC = "metrics-cost";

    private MetricsCostMeasurement() {}

    /** A broker process and its CPU charged per phase. */
    private static final class Broker implements AutoCloseable {
        final String label;
        final Process process;
        final String bootstrap;
        final long[] produceCpuNanos;
        final long[] fetchCpuNanos;
        long roundStartOffset;
        /** The clients' records-per-request-avg of the last produce and fetch (the metrics' cost is per request). */
        double recordsPerProduce;

        double recordsPerFetch;

        Broker(String label, Path dataDir, boolean metrics, int rounds) throws IOException {
            this.label = label;
            this.produceCpuNanos = new long[rounds];
            this.fetchCpuNanos = new long[rounds];
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx1g",
                    "-XX:+UseG1GC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    BrokerProcess.class.getName(),
                    "log.dirs=" + dataDir,
                    "listeners=PLAINTEXT://127.0.0.1:0",
                    "sluice.metrics.enable=" + metrics,
                    "group.initial.rebalance.delay.ms=0"));
            this.process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line;
            String port = null;
            while (port == null && (line = out.readLine()) != null) {
                if (line.startsWith("PORT ")) {
                    port = line.substring(5).trim();
                }
            }
            if (port == null) {
                throw new IOException(label + " broker ended before serving");
            }
            this.bootstrap = "127.0.0.1:" + port;
        }

        long cpuNanos() {
            return process.toHandle().info().totalCpuDuration().orElseThrow().toNanos();
        }

        @Override
        public void close() {
            process.destroy();
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int records = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        int valueBytes = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        int fetchPasses = args.length > 3 ? Integer.parseInt(args[3]) : 4;
        Path dir = Files.createTempDirectory("metrics-cost");
        try (Broker on = new Broker("metrics on", dir.resolve("on"), true, rounds);
                Broker off = new Broker("metrics off", dir.resolve("off"), false, rounds)) {
            for (Broker broker : List.of(on, off)) {
                createTopic(broker);
                produce(broker, records / 10, valueBytes); // warm-up: JIT, page cache, connections
                fetch(broker, records / 10);
                broker.roundStartOffset = records / 10;
            }
            System.out.printf(
                    Locale.ROOT,
                    "%d rounds x %,d records of %d B produced, then fetched %d times, alternated%n",
                    rounds,
                    records,
                    valueBytes,
                    fetchPasses);
            System.out.printf(Locale.ROOT, "| round | first | produce on / off | fetch on / off |%n");
            System.out.printf(Locale.ROOT, "|---|---|---:|---:|%n");
            for (int round = 0; round < rounds; round++) {
                List<Broker> order = round % 2 == 0 ? List.of(on, off) : List.of(off, on);
                for (Broker broker : order) {
                    long before = broker.cpuNanos();
                    produce(broker, records, valueBytes);
                    broker.produceCpuNanos[round] = broker.cpuNanos() - before;
                }
                for (Broker broker : order) {
                    long before = broker.cpuNanos();
                    for (int pass = 0; pass < fetchPasses; pass++) {
                        fetch(broker, records);
                    }
                    broker.fetchCpuNanos[round] = broker.cpuNanos() - before;
                    broker.roundStartOffset += records;
                }
                System.out.printf(
                        Locale.ROOT,
                        "| %d | %s | %.3f | %.3f |%n",
                        round + 1,
                        order.get(0) == on ? "on" : "off",
                        on.produceCpuNanos[round] / (double) off.produceCpuNanos[round],
                        on.fetchCpuNanos[round] / (double) off.fetchCpuNanos[round]);
            }
            System.out.printf(
                    Locale.ROOT,
                    "| phase | metrics on: broker CPU us/record | metrics off | on / off (totals) |"
                            + " median of the rounds' on / off |%n");
            System.out.printf(Locale.ROOT, "|---|---:|---:|---:|---:|%n");
            row("produce", on.produceCpuNanos, off.produceCpuNanos, (long) records);
            row("fetch", on.fetchCpuNanos, off.fetchCpuNanos, (long) records * fetchPasses);
            System.out.printf(
                    Locale.ROOT,
                    "records per request (clients' records-per-request-avg, last round): produce %.1f / %.1f,"
                            + " fetch %.1f / %.1f (on / off)%n",
                    on.recordsPerProduce,
                    off.recordsPerProduce,
                    on.recordsPerFetch,
                    off.recordsPerFetch);
        }
    }

    private static void row(String phase, long[] onNanos, long[] offNanos, long recordsPerRound) {
        long onTotal = 0;
        long offTotal = 0;
        double[] ratios = new double[onNanos.length];
        for (int round = 0; round < onNanos.length; round++) {
            onTotal += onNanos[round];
            offTotal += offNanos[round];
            ratios[round] = onNanos[round] / (double) offNanos[round];
        }
        Arrays.sort(ratios);
        int mid = ratios.length / 2;
        double median = ratios.length % 2 == 1 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
        long records = recordsPerRound * onNanos.length;
        System.out.printf(
                Locale.ROOT,
                "| %s | %.3f | %.3f | **%.3f** | **%.3f** |%n",
                phase,
                onTotal / 1000.0 / records,
                offTotal / 1000.0 / records,
                onTotal / (double) offTotal,
                median);
    }

    private static double clientMetric(Map<MetricName, ? extends Metric> metrics, String group) {
        for (Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
            if (metric.getKey().group().equals(group) && metric.getKey().name().equals("records-per-request-avg")) {
                return ((Number) metric.getValue().metricValue()).doubleValue();
            }
        }
        return Double.NaN;
    }

    private static void createTopic(Broker broker) throws Exception {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap);
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
        }
    }

    private static void produce(Broker broker, int records, int valueBytes) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        byte[] value = new byte[valueBytes];
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            AtomicReference<Exception> failure = new AtomicReference<>();
            for (int i = 0; i < records; i++) {
                // The callback keeps the first failure, thrown below once every send has completed.
                var unused = producer.send(new ProducerRecord<>(TOPIC, value), (m, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
            }
            producer.flush();
            if (failure.get() != null) {
                throw new IllegalStateException(broker.label + ": a produce failed", failure.get());
            }
            broker.recordsPerProduce = clientMetric(producer.metrics(), "producer-metrics");
        }
    }

    private static void fetch(Broker broker, int records) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(TOPIC, 0);
            consumer.assign(List.of(partition));
            consumer.seek(partition, broker.roundStartOffset);
            int read = 0;
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (read < records && System.nanoTime() < deadline) {
                read += consumer.poll(Duration.ofMillis(200)).count();
            }
            broker.recordsPerFetch = clientMetric(consumer.metrics(), "consumer-fetch-manager-metrics");
            if (read < records) {
                throw new IllegalStateException(broker.label + ": fetched " + read + " of " + records);
            }
        }
    }
}
