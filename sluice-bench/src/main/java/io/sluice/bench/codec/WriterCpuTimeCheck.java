package io.sluice.bench.codec;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * A cross-check of {@link MessageWriterBenchmark} that stays meaningful on an oversubscribed machine: the three
 * writers are timed by thread CPU time (not wall time), interleaved in rounds in one JVM, and the best round of each
 * is reported (many short rounds, so that undisturbed ones exist even under load). Run with the JVM flags of {@link MessageWriterBenchmark} and the buffer size as argument:
 * {@code java --add-opens=java.base/java.nio=ALL-UNNAMED ... io.sluice.bench.codec.WriterCpuTimeCheck 32}.
 * Not thread-safe; a command-line tool.
 */
public final class WriterCpuTimeCheck {
    /**
     * Many short rounds (about 50 ms each): on a machine shared by many processes, a long round almost surely contains
     * context switches whose cache pollution is charged to it, while some short rounds run undisturbed.
     */
    private static final int ROUNDS = 150;

    private static final int OPS = 150_000;

    private WriterCpuTimeCheck() {}

    /**
     * Arguments: buffer size, then optionally the buffer kind ({@code direct} or {@code heap}) and the writers to run
     * ({@code all}, the default, interleaves the three in one JVM; {@code sluice}, {@code ignite} or {@code protobuf}
     * runs one alone, so that no writer's JIT profile or compilation shares a JVM with another's).
     */
    public static void main(String[] args) throws Exception {
        MessageWriterBenchmark b = new MessageWriterBenchmark();
        b.bufferSize = Integer.parseInt(args[0]);
        b.bufferKind = args.length > 1 ? args[1] : "direct";
        String only = args.length > 2 ? args[2] : "all";
        boolean all = only.equals("all");
        b.setUp();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sink = 0;
        double sluice = Double.NaN;
        double ignite = Double.NaN;
        double protobuf = Double.NaN;
        for (int round = 0; round < ROUNDS; round++) {
            if (all || only.equals("sluice")) {
                long t0 = mx.getCurrentThreadCpuTime();
                for (int i = 0; i < OPS; i++) {
                    sink += b.sluice();
                }
                sluice = best(sluice, mx.getCurrentThreadCpuTime() - t0);
            }
            if (all || only.equals("ignite")) {
                long t0 = mx.getCurrentThreadCpuTime();
                for (int i = 0; i < OPS; i++) {
                    sink += b.ignite();
                }
                ignite = best(ignite, mx.getCurrentThreadCpuTime() - t0);
            }
            if (all || only.equals("protobuf")) {
                long t0 = mx.getCurrentThreadCpuTime();
                for (int i = 0; i < OPS; i++) {
                    sink += b.protobuf();
                }
                protobuf = best(protobuf, mx.getCurrentThreadCpuTime() - t0);
            }
        }
        System.out.printf(
                Locale.ROOT,
                "buffer %d B, %d bytes/message, writers %s: best-round CPU ns/op sluice %.1f, ignite %.1f,"
                        + " protobuf %.1f; ignite/sluice %.2f, protobuf/sluice %.2f (checksum %d)%n",
                b.bufferSize,
                b.bytesPerMessage(),
                only,
                sluice,
                ignite,
                protobuf,
                ignite / sluice,
                protobuf / sluice,
                sink);
    }

    private static double best(double bestSoFar, long roundNanos) {
        double perOp = roundNanos / (double) OPS;
        return Double.isNaN(bestSoFar) ? perOp : Math.min(bestSoFar, perOp);
    }
}
