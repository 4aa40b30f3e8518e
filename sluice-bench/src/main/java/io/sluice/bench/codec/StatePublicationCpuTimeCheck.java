package io.sluice.bench.codec;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * A load-robust cross-check of {@link StatePublicationBenchmark}'s "time no worse" claim: for each state size the
 * baseline (serialize to byte[], then deflate) and streaming zlib are timed by thread CPU time, interleaved round by
 * round in one JVM (so load skews both alike), and the median and best rounds are reported with their ratios.
 * {@code java -cp ... io.sluice.bench.codec.StatePublicationCpuTimeCheck [rounds]}. Not thread-safe; a command-line
 * tool.
 */
public final class StatePublicationCpuTimeCheck {
    private static final String[] SIZES = {"2K", "130K", "1600K"};
    /** Target CPU time per round and variant, so a round is short enough to often run undisturbed. */
    private static final long ROUND_NANOS = 20_000_000L;

    private static final int WARMUP_ROUNDS = 10;

    private StatePublicationCpuTimeCheck() {}

    public static void main(String[] args) throws IOException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 41;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sink = 0;
        for (String size : SIZES) {
            StatePublicationBenchmark b = new StatePublicationBenchmark();
            b.size = size;
            b.setUp();
            int ops = opsPerRound(b, mx);
            double[] baseline = new double[rounds];
            double[] streaming = new double[rounds];
            for (int round = -WARMUP_ROUNDS; round < rounds; round++) {
                long t0 = mx.getCurrentThreadCpuTime();
                for (int i = 0; i < ops; i++) {
                    sink += b.baselineMaterialize().length;
                }
                long t1 = mx.getCurrentThreadCpuTime();
                for (int i = 0; i < ops; i++) {
                    sink += b.streamingZlib().size();
                }
                long t2 = mx.getCurrentThreadCpuTime();
                if (round >= 0) {
                    baseline[round] = (t1 - t0) / 1e3 / ops;
                    streaming[round] = (t2 - t1) / 1e3 / ops;
                }
            }
            b.tearDown();
            Arrays.sort(baseline);
            Arrays.sort(streaming);
            double baselineMedian = baseline[rounds / 2];
            double streamingMedian = streaming[rounds / 2];
            System.out.printf(
                    Locale.ROOT,
                    "%-6s CPU us/op median: baseline %.1f, streaming zlib %.1f, ratio %.2f; best: %.1f, %.1f,"
                            + " ratio %.2f (%d rounds x %d ops)%n",
                    size,
                    baselineMedian,
                    streamingMedian,
                    streamingMedian / baselineMedian,
                    baseline[0],
                    streaming[0],
                    streaming[0] / baseline[0],
                    rounds,
                    ops);
        }
        System.out.println("checksum " + sink);
    }

    /** Enough operations that one variant's round takes about {@link #ROUND_NANOS} of CPU. */
    private static int opsPerRound(StatePublicationBenchmark b, ThreadMXBean mx) throws IOException {
        long t0 = mx.getCurrentThreadCpuTime();
        int probe = 0;
        do {
            b.baselineMaterialize();
            probe++;
        } while (mx.getCurrentThreadCpuTime() - t0 < ROUND_NANOS / 4);
        long perOp = Math.max(1, (mx.getCurrentThreadCpuTime() - t0) / probe);
        return (int) Math.max(1, ROUND_NANOS / perOp);
    }
}
