package io.sluice.bench.record;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * The cells of {@link RecordBatchValidationBenchmark} measured in thread CPU time, with Sluice,
 * Kafka and the floor interleaved round by round inside one JVM, so that a machine shared with
 * other work (which JMH's wall-clock forks, run one after another, cannot separate from the code)
 * skews all three alike. Prints a markdown table of medians and ratios. zstd cells also measure
 * {@link RecordBatchValidationBenchmark#floorStreaming} (the floor with zstd's streaming decoder).
 *
 * <p>Run: {@code java -cp 'sluice-bench/target/classes:sluice-bench/target/lib/*'
 * io.sluice.bench.record.RecordBatchValidationCpuTime [rounds [codecs [record counts [payloads]]]]},
 * the last three comma-separated (e.g. {@code 15 lz4,zstd 200 random,incompressible}) to measure a
 * subset of the cells or the {@code incompressible} payload (see {@link BenchBatches}).
 *
 * <p>Not thread-safe; a command-line tool.
 */
public final class RecordBatchValidationCpuTime {

    private static final long SLICE_NANOS = 20_000_000L;
    private static final long WARMUP_NANOS = 1_000_000_000L;
    private static final String[] CODECS = {"none", "gzip", "snappy", "lz4", "zstd"};
    private static final String[] PAYLOADS = {"random", "json"};
    private static final int[] RECORDS = {1, 200};
    private static final int[] VALUE_SIZES = {100, 1000, 10000};

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private RecordBatchValidationCpuTime() {}

    private interface Op {
        Object run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        String[] codecs = args.length > 1 ? args[1].split(",") : CODECS;
        int[] recordCounts = args.length > 2
                ? Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray()
                : RECORDS;
        System.out.println("| codec | payload | records | value B | Sluice µs | Kafka µs | floor µs"
                + " | floor (zstd streaming) µs | Sluice/Kafka throughput | Sluice/floor throughput"
                + " | Sluice/floor (zstd streaming) throughput |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        String[] payloads = args.length > 3 ? args[3].split(",") : PAYLOADS;
        for (String codec : codecs) {
            for (String payload : payloads) {
                for (int records : recordCounts) {
                    for (int valueSize : VALUE_SIZES) {
                        cell(codec, payload, records, valueSize, rounds);
                    }
                }
            }
        }
    }

    private static void cell(String codec, String payload, int records, int valueSize, int rounds) throws Exception {
        RecordBatchValidationBenchmark bench = new RecordBatchValidationBenchmark();
        bench.codec = codec;
        bench.payload = payload;
        bench.records = records;
        bench.valueSize = valueSize;
        bench.windowKiB = 128;
        bench.setUp();
        Op[] ops = codec.equals("zstd")
                ? new Op[] {bench::sluice, bench::kafka, bench::floor, bench::floorStreaming}
                : new Op[] {bench::sluice, bench::kafka, bench::floor};
        int[] batchSizes = new int[ops.length];
        for (int i = 0; i < ops.length; i++) {
            batchSizes[i] = calibrate(ops[i]);
        }
        double[][] perOp = new double[ops.length][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < ops.length; i++) {
                long start = THREADS.getCurrentThreadCpuTime();
                for (int n = 0; n < batchSizes[i]; n++) {
                    ops[i].run();
                }
                perOp[i][r] = (THREADS.getCurrentThreadCpuTime() - start) / (double) batchSizes[i];
            }
        }
        bench.tearDown();
        double sluice = median(perOp[0]);
        double kafka = median(perOp[1]);
        double floor = median(perOp[2]);
        String streamingFloor = "–";
        String streamingRatio = "–";
        if (ops.length > 3) {
            double streaming = median(perOp[3]);
            streamingFloor = String.format(Locale.ROOT, "%.2f", streaming / 1000);
            streamingRatio = String.format(Locale.ROOT, "%.0f%%", 100 * streaming / sluice);
        }
        System.out.println(String.format(
                Locale.ROOT,
                "| %s | %s | %d | %d | %.2f | %.2f | %.2f | %s | %.2fx | %.0f%% | %s |",
                codec,
                payload,
                records,
                valueSize,
                sluice / 1000,
                kafka / 1000,
                floor / 1000,
                streamingFloor,
                kafka / sluice,
                100 * floor / sluice,
                streamingRatio));
    }

    /** Warms the op up and returns how many invocations take about one slice of CPU time. */
    private static int calibrate(Op op) throws Exception {
        long start = THREADS.getCurrentThreadCpuTime();
        long count = 0;
        while (THREADS.getCurrentThreadCpuTime() - start < WARMUP_NANOS) {
            op.run();
            count++;
        }
        double perOp = (double) WARMUP_NANOS / count;
        return (int) Math.max(1, SLICE_NANOS / perOp);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
