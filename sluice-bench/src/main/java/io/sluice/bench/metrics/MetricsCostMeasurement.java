package io.sluice.bench.metrics;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
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
 * {@code sluice.metrics.enable=true}, one with false, driven alternately by the same kafka-clients producer and
 * consumer settings. Each round produces R records to each broker, then fetches them back P times (so that the cheaper
 * fetch phase runs about as long), in ABBA order: the first broker, the second, the second again, the first again
 * (half the work each time), the first broker alternating between rounds, so that a drift of the machine's load
 * within a round weighs on both alike. Each slot is charged the broker process's CPU time ({@link ProcessCpu}, in
 * nanoseconds) during that slot only, without the JIT compiler threads (after a warm-up in small requests that gets
 * the per-request code compiled, they still compile in bursts for minutes, more CPU than a fetch slot's work, landing
 * in either broker's slot; their time is shown apart), and each round gives one on / off ratio per phase. The report: each round's
 * ratios; per phase the median of the rounds' ratios with its quartiles and a bootstrap 95% interval
 * ({@link PairedRatios}), the ratio of the totals and the CPU per record; and each broker's CPU per second while
 * idle, before and after the rounds, so that a fixed cost of either shows apart from the per-record one.
 *
 * <p>Usage: {@code MetricsCostMeasurement [rounds] [recordsPerRound] [valueBytes] [fetchPasses] [idleSeconds]
 * [warmUpRounds]}; the warm-up rounds run the same way and are not counted. {@code -Dsluice.bench.metricsCost.control=true}
 * runs both brokers with metrics off (a control); {@code -Dsluice.bench.metricsCost.offFirst=true} starts the
 * metrics-off broker first (alternate it between runs: the first broker reads dearer). Not thread-safe; a main.
 */
public final class MetricsCostMeasurement {
    private static final String TOPIC = "metrics-cost";
    /** The warm-up's batch.size and max.partition.fetch.bytes: small requests, many of them. */
    private static final int WARM_UP_REQUEST_BYTES = 4096;
    /** kafka-clients' defaults of batch.size and max.partition.fetch.bytes, for the rounds. */
    private static final int BATCH_BYTES = 16_384;

    private static final int PARTITION_FETCH_BYTES = 1_048_576;

    /**
     * System property: more JVM options for both brokers, separated by spaces (profiling, e.g. {@code
     * -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=/tmp/jit-%p.log}).
     */
    static final String BROKER_JVM_OPTIONS = "sluice.bench.brokerJvmOptions";

    /**
     * System property: {@code true} makes a control run, both brokers with metrics off (the "on" column is then the
     * first broker, metrics off too), to see what the measurement reads when the brokers do not differ.
     */
    static final String CONTROL_RUN = "sluice.bench.metricsCost.control";

    /**
     * System property: {@code true} starts (and warms up) the metrics-off broker first. A control run reads the first
     * broker about 3% dearer on fetch with both off, so runs alternate this to cancel the broker's position.
     */
    static final String OFF_FIRST = "sluice.bench.metricsCost.offFirst";

    private MetricsCostMeasurement() {}

    /** The two halves of a phase, in ABBA order, as indexes of the brokers {on, off}. */
    private static int[] slotOrder(int round) {
        return round % 2 == 0 ? new int[] {0, 1, 1, 0} : new int[] {1, 0, 0, 1};
    }

    /** A broker process and the CPU and wall time charged to it per round and phase. */
    private static final class Broker implements AutoCloseable {
        final String label;
        final Process process;
        final ProcessCpu cpu;
        final String bootstrap;
        final long[] produceCpuNanos;
        final long[] fetchCpuNanos;
        /** The measured rounds' CPU by thread group, to see where a difference went. */
        final Map<String, Long> produceByGroup = new TreeMap<>();

        final Map<String, Long> fetchByGroup = new TreeMap<>();

        final Map<String, Long> idleByGroup = new TreeMap<>();
        long produceWallNanos;
        long fetchWallNanos;
        long roundStartOffset;
        /** The clients' records-per-request-avg of the last produce and fetch (the metrics' cost is per request). */
        double recordsPerProduce;

        double recordsPerFetch;

        Broker(String label, Path dataDir, boolean metrics, int rounds) throws IOException {
            this.label = label;
            this.produceCpuNanos = new long[rounds];
            this.fetchCpuNanos = new long[rounds];
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g", "-XX:+UseG1GC"));
            String extraOptions = System.getProperty(BROKER_JVM_OPTIONS, "").trim();
            if (!extraOptions.isEmpty()) {
                command.addAll(List.of(extraOptions.split("\\s+")));
            }
            command.addAll(List.of(
                    "-cp",
                    System.getProperty("java.class.path"),
                    BrokerProcess.class.getName(),
                    "log.dirs=" + dataDir,
                    "listeners=PLAINTEXT://127.0.0.1:0",
                    "sluice.metrics.enable=" + metrics,
                    // one segment for the whole run (about 1.7 GB at the usual sizes): a rolled 1 GiB segment's
                    // fsync (40-70 ms of writeback, charged to the log scheduler) landed in one broker's fetch slots
                    "log.segment.bytes=" + Integer.MAX_VALUE,
                    "group.initial.rebalance.delay.ms=0"));
            this.process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            this.cpu = new ProcessCpu(process.toHandle());
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

        /** Stops the broker and waits for it to end, so its files can be deleted. */
        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        int records = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        int valueBytes = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        int fetchPasses = args.length > 3 ? Integer.parseInt(args[3]) : 4;
        int idleSeconds = args.length > 4 ? Integer.parseInt(args[4]) : 20;
        int warmUpRounds = args.length > 5 ? Integer.parseInt(args[5]) : 2;
        Path dir = Files.createTempDirectory("metrics-cost");
        try {
            measure(dir, rounds, records, valueBytes, fetchPasses, idleSeconds, warmUpRounds);
        } finally {
            deleteTree(dir);
        }
    }

    private static void measure(
            Path dir, int rounds, int records, int valueBytes, int fetchPasses, int idleSeconds, int warmUpRounds)
            throws Exception {
        int passesPerSlot = Math.max(1, fetchPasses / 2);
        boolean control = Boolean.getBoolean(CONTROL_RUN);
        if (control) {
            System.out.printf(Locale.ROOT, "control run: both brokers have metrics off (\"on\" is the first)%n");
        }
        boolean offFirst = Boolean.getBoolean(OFF_FIRST);
        String onLabel = control ? "control" : "metrics on";
        try (Broker first = offFirst
                        ? new Broker("metrics off", dir.resolve("off"), false, rounds)
                        : new Broker(onLabel, dir.resolve("on"), !control, rounds);
                Broker second = offFirst
                        ? new Broker(onLabel, dir.resolve("on"), !control, rounds)
                        : new Broker("metrics off", dir.resolve("off"), false, rounds)) {
            for (Broker broker : List.of(first, second)) {
                createTopic(broker);
                warmUp(broker, records, valueBytes);
                broker.roundStartOffset = records;
            }
            Broker on = offFirst ? second : first;
            Broker off = offFirst ? first : second;
            Broker[] brokers = {on, off};
            System.out.printf(
                    Locale.ROOT,
                    "broker pids: on %d, off %d; started and warmed up first: %s%n",
                    on.process.pid(),
                    off.process.pid(),
                    first.label);
            double[] idleBefore = idleCpuMillisPerSecond(on, off, idleSeconds);
            System.out.printf(
                    Locale.ROOT,
                    "%d rounds (after %d not counted) x %,d records of %d B produced, then fetched %d times, ABBA"
                            + " order%n%n",
                    rounds,
                    warmUpRounds,
                    records,
                    valueBytes,
                    passesPerSlot * 2);
            System.out.printf(
                    Locale.ROOT,
                    "| round | order | produce on / off | fetch on / off | produce CPU ms on / off |"
                            + " fetch CPU ms on / off |%n");
            System.out.printf(Locale.ROOT, "|---|---|---:|---:|---:|---:|%n");
            for (int round = -warmUpRounds; round < rounds; round++) {
                int[] order = slotOrder(round + warmUpRounds);
                for (int slot = 0; slot < order.length; slot++) {
                    Broker broker = brokers[order[slot]];
                    int count = slot < 2 ? records / 2 : records - records / 2;
                    Map<String, Long> before = broker.cpu.byGroup();
                    long wallBefore = System.nanoTime();
                    produce(broker, count, valueBytes);
                    if (round >= 0) {
                        broker.produceWallNanos += System.nanoTime() - wallBefore;
                        broker.produceCpuNanos[round] += charge(broker, before, broker.produceByGroup);
                    }
                }
                for (int broker : order) {
                    fetchSlot(brokers[broker], round, records, passesPerSlot);
                }
                for (Broker broker : brokers) {
                    broker.roundStartOffset += records;
                }
                if (round < 0) {
                    continue;
                }
                System.out.printf(
                        Locale.ROOT,
                        "| %d | %s | %.3f | %.3f | %.0f / %.0f | %.0f / %.0f |%n",
                        round + 1,
                        order[0] == 0 ? "on off off on" : "off on on off",
                        on.produceCpuNanos[round] / (double) off.produceCpuNanos[round],
                        on.fetchCpuNanos[round] / (double) off.fetchCpuNanos[round],
                        on.produceCpuNanos[round] / 1e6,
                        off.produceCpuNanos[round] / 1e6,
                        on.fetchCpuNanos[round] / 1e6,
                        off.fetchCpuNanos[round] / 1e6);
            }
            double[] idleAfter = idleCpuMillisPerSecond(on, off, idleSeconds);
            System.out.printf(
                    Locale.ROOT,
                    "%n| phase | on: CPU us/record | off: CPU us/record | **median of rounds' on / off** |"
                            + " quartiles | bootstrap 95%% of the median | on / off (totals) |%n");
            System.out.printf(Locale.ROOT, "|---|---:|---:|---:|---|---|---:|%n");
            row("produce", on.produceCpuNanos, off.produceCpuNanos, (long) records);
            row("fetch", on.fetchCpuNanos, off.fetchCpuNanos, (long) records * passesPerSlot * 2);
            System.out.printf(
                    Locale.ROOT,
                    "%nidle broker CPU, ms per second (%d s each, both brokers at once): before the rounds on %.2f /"
                            + " off %.2f, after on %.2f / off %.2f%n",
                    idleSeconds,
                    idleBefore[0],
                    idleBefore[1],
                    idleAfter[0],
                    idleAfter[1]);
            fixedCostShare("produce", on.produceWallNanos, sum(off.produceCpuNanos), idleBefore, idleAfter);
            fixedCostShare("fetch", on.fetchWallNanos, sum(off.fetchCpuNanos), idleBefore, idleAfter);
            byThreadGroup(on, off);
            System.out.printf(
                    Locale.ROOT,
                    "threads that ended between two CPU readings (their time then is lost): on %d, off %d%n",
                    on.cpu.endedThreads(),
                    off.cpu.endedThreads());
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

    /**
     * One broker's fetch half of a round: the round's records, {@code passes} times, charged to that round unless it
     * is a warm-up round (negative).
     */
    private static void fetchSlot(Broker broker, int round, int records, int passes) {
        Map<String, Long> before = broker.cpu.byGroup();
        long wallBefore = System.nanoTime();
        for (int pass = 0; pass < passes; pass++) {
            fetch(broker, records);
        }
        if (round >= 0) {
            broker.fetchWallNanos += System.nanoTime() - wallBefore;
            broker.fetchCpuNanos[round] += charge(broker, before, broker.fetchByGroup);
        }
    }

    /**
     * The broker's CPU since {@code before} without its JIT compiler threads (they are still compiling for minutes
     * after the start, in bursts that land in either broker's slot; reported apart), its thread groups' shares added to
     * {@code byGroup}.
     */
    private static long charge(Broker broker, Map<String, Long> before, Map<String, Long> byGroup) {
        Map<String, Long> after = broker.cpu.byGroup();
        ProcessCpu.addDifference(before, after, byGroup);
        return ProcessCpu.totalWithoutCompilers(after) - ProcessCpu.totalWithoutCompilers(before);
    }

    /**
     * Gets the per-request code compiled before anything is counted: a round's records produced and fetched twice in
     * small requests (about 35 records each, some 17,000 requests), which the JIT compiles as it would after minutes
     * of a broker's life; the rounds' requests, of 150 and 9,000 records, are too few for that.
     */
    private static void warmUp(Broker broker, int records, int valueBytes) throws Exception {
        produce(broker, records, valueBytes, WARM_UP_REQUEST_BYTES);
        for (int pass = 0; pass < 2; pass++) {
            fetch(broker, records, WARM_UP_REQUEST_BYTES);
        }
    }

    /** The measured rounds' CPU by thread group, the groups that used the most first. */
    private static void byThreadGroup(Broker on, Broker off) {
        Map<String, Long> weight = new TreeMap<>();
        for (Broker broker : List.of(on, off)) {
            broker.produceByGroup.forEach((group, nanos) -> weight.merge(group, nanos, Long::sum));
            broker.fetchByGroup.forEach((group, nanos) -> weight.merge(group, nanos, Long::sum));
            broker.idleByGroup.forEach((group, nanos) -> weight.merge(group, nanos, Long::sum));
        }
        List<String> groups = new ArrayList<>(weight.keySet());
        groups.sort((a, b) -> Long.compare(weight.get(b), weight.get(a)));
        System.out.printf(
                Locale.ROOT,
                "%nbroker CPU by thread group, ms over the counted rounds (the compiler threads not charged to them) and"
                        + " both idle periods:%n%n"
                        + "| threads | produce on | produce off | fetch on | fetch off | idle on | idle off |%n"
                        + "|---|---:|---:|---:|---:|---:|---:|%n");
        for (String group : groups.subList(0, Math.min(groups.size(), 14))) {
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |%n",
                    group,
                    on.produceByGroup.getOrDefault(group, 0L) / 1e6,
                    off.produceByGroup.getOrDefault(group, 0L) / 1e6,
                    on.fetchByGroup.getOrDefault(group, 0L) / 1e6,
                    off.fetchByGroup.getOrDefault(group, 0L) / 1e6,
                    on.idleByGroup.getOrDefault(group, 0L) / 1e6,
                    off.idleByGroup.getOrDefault(group, 0L) / 1e6);
        }
        System.out.println();
    }

    /** Both brokers' CPU over the same {@code seconds} of no load: {on, off} in milliseconds per second. */
    private static double[] idleCpuMillisPerSecond(Broker on, Broker off, int seconds) throws InterruptedException {
        Map<String, Long> onBefore = on.cpu.byGroup();
        Map<String, Long> offBefore = off.cpu.byGroup();
        long wallBefore = System.nanoTime();
        Thread.sleep(Duration.ofSeconds(seconds).toMillis());
        double wallSeconds = (System.nanoTime() - wallBefore) / 1e9;
        return new double[] {
            charge(on, onBefore, on.idleByGroup) / 1e6 / wallSeconds,
            charge(off, offBefore, off.idleByGroup) / 1e6 / wallSeconds
        };
    }

    /** What the idle difference (on minus off, mean of before and after) would add to a phase of the on broker. */
    private static void fixedCostShare(
            String phase, long onWallNanos, long offCpuNanos, double[] idleBefore, double[] idleAfter) {
        double extraMillisPerSecond = ((idleBefore[0] - idleBefore[1]) + (idleAfter[0] - idleAfter[1])) / 2;
        double extraNanos = extraMillisPerSecond * 1e6 * onWallNanos / 1e9;
        System.out.printf(
                Locale.ROOT,
                "%s: the idle difference (%.2f ms/s) over the on broker's %.1f s of %s is %.2f%% of the off broker's"
                        + " %s CPU%n",
                phase,
                extraMillisPerSecond,
                onWallNanos / 1e9,
                phase,
                100 * extraNanos / offCpuNanos,
                phase);
    }

    private static void row(String phase, long[] onNanos, long[] offNanos, long recordsPerRound) {
        PairedRatios ratios = new PairedRatios(onNanos, offNanos);
        double[] interval = ratios.medianInterval95();
        long records = recordsPerRound * onNanos.length;
        System.out.printf(
                Locale.ROOT,
                "| %s | %.3f | %.3f | **%.3f** | %.3f-%.3f | %.3f-%.3f | %.3f |%n",
                phase,
                sum(onNanos) / 1000.0 / records,
                sum(offNanos) / 1000.0 / records,
                ratios.median(),
                ratios.firstQuartile(),
                ratios.thirdQuartile(),
                interval[0],
                interval[1],
                ratios.totalsRatio());
    }

    private static long sum(long[] values) {
        long total = 0;
        for (long value : values) {
            total += value;
        }
        return total;
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
        produce(broker, records, valueBytes, BATCH_BYTES);
    }

    private static void produce(Broker broker, int records, int valueBytes, int batchBytes) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, batchBytes);
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
        fetch(broker, records, PARTITION_FETCH_BYTES);
    }

    private static void fetch(Broker broker, int records, int partitionFetchBytes) {
        Properties props = new Properties();
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, partitionFetchBytes);
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

    /** Deletes the brokers' data (logs and ZooKeeper), children first. */
    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
