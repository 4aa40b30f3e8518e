package io.sluice.bench.codec;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

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

    private WriterCpuTimeCheck() {
    }

    public static void main(String[] args) throws Exception {
        MessageWriterBenchmark b = new MessageWriterBenchmark();
        b.bufferSize = Integer.parseInt(args[0]);
        b.bufferKind = args.length > 1 ? args[1] : "direct";
        b.setUp();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sink = 0;
        double sluice = Double.MAX_VALUE;
        double ignite = Double.MAX_VALUE;
        double protobuf = Double.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            long t0 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < OPS; i++) {
                sink += b.sluice();
            }
            long t1 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < OPS; i++) {
                sink += b.ignite();
            }
            long t2 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < OPS; i++) {
                sink += b.protobuf();
            }
            long t3 = mx.getCurrentThreadCpuTime();
            sluice = Math.min(sluice, (t1 - t0) / (double) OPS);
            ignite = Math.min(ignite, (t2 - t1) / (double) OPS);
            protobuf = Math.min(protobuf, (t3 - t2) / (double) OPS);
        }
        System.out.printf("buffer %d B, %d bytes/message: best-round CPU ns/op sluice %.1f, ignite %.1f, protobuf %.1f;"
                + " ignite/sluice %.2f, protobuf/sluice %.2f (checksum %d)%n", b.bufferSize, b.bytesPerMessage(),
                sluice, ignite, protobuf, ignite / sluice, protobuf / sluice, sink);
    }
}
