package io.sluice.bench.codec;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * A cross-check of {@link MembershipJoinBenchmark} that stays meaningful on an oversubscribed machine: the variants are
 * timed by thread CPU time, interleaved in rounds in one JVM, best round reported.
 * {@code java -cp ... io.sluice.bench.codec.MembershipCpuTimeCheck}. Not thread-safe; a command-line tool.
 */
public final class MembershipCpuTimeCheck {
    /** Many short rounds (tens of ms each), so that some run undisturbed on a machine shared by many processes. */
    private static final int ROUNDS = 120;

    private static final int OPS = 12;

    private MembershipCpuTimeCheck() {}

    public static void main(String[] args) {
        MembershipJoinBenchmark b = new MembershipJoinBenchmark();
        b.setUp();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sink = 0;
        double bytes = Double.MAX_VALUE;
        double cached = Double.MAX_VALUE;
        double perCompare = Double.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            long t0 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < OPS; i++) {
                sink += b.bytes();
            }
            long t1 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < OPS; i++) {
                sink += b.stringsCachedHash();
            }
            long t2 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < OPS / 4; i++) {
                sink += b.stringsHashPerCompare();
            }
            long t3 = mx.getCurrentThreadCpuTime();
            bytes = Math.min(bytes, (t1 - t0) / 1e3 / OPS);
            cached = Math.min(cached, (t2 - t1) / 1e3 / OPS);
            perCompare = Math.min(perCompare, (t3 - t2) / 1e3 / (OPS / 4));
        }
        System.out.printf(
                Locale.ROOT,
                "1,000 joins, best-round CPU us/op: bytes %.0f, strings cached hash %.0f, strings hash per"
                        + " compare %.0f; bytes/cached %.2f, bytes/perCompare %.2f (checksum %d)%n",
                bytes,
                cached,
                perCompare,
                bytes / cached,
                bytes / perCompare,
                sink);
    }
}
