package io.sluice.bench.codec;

import io.sluice.codec.endpoint.Endpoint;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Benchmark 4 of issue 4: 1,000 endpoints join at once (a mass join: 1,000 join requests queued for the membership
 * service's single event thread). Each join decodes the endpoint from the received bytes and inserts it into a
 * 10-ring membership view. Byte endpoints ({@link MembershipView}) vs the String-hostname variant
 * ({@link StringMembershipView}), with ring hashes cached per insert or, as Rapid did before PR #19, per comparison.
 * One op = the 1,000 joins into a fresh view.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MembershipJoinBenchmark {
    static final int NODES = 1000;
    static final int RINGS = 10;

    /** The received join requests: per node, host length, host bytes, port (2 bytes). */
    private ByteBuffer joins;

    @Setup(Level.Trial)
    public void setUp() {
        joins = ByteBuffer.allocate(NODES * 64);
        for (int i = 0; i < NODES; i++) {
            byte[] host =
                    ("node-" + i + ".rack-" + (i % 40) + ".dc1.cluster.local").getBytes(StandardCharsets.US_ASCII);
            joins.put((byte) host.length).put(host).putShort((short) (7000 + i % 3));
        }
        joins.flip();
        if (bytes() != strings(false) || strings(false) != strings(true)) {
            throw new IllegalStateException("variants disagree on the configuration id");
        }
    }

    @Benchmark
    public long bytes() {
        ByteBuffer in = joins.duplicate();
        byte[] a = in.array();
        MembershipView view = new MembershipView(RINGS);
        while (in.hasRemaining()) {
            int len = in.get();
            int off = in.position();
            in.position(off + len);
            int port = in.getShort() & 0xFFFF;
            view.add(Endpoint.copyOf(a, off, len, port));
        }
        return view.configurationId();
    }

    @Benchmark
    public long stringsCachedHash() {
        return strings(false);
    }

    @Benchmark
    public long stringsHashPerCompare() {
        return strings(true);
    }

    private long strings(boolean hashPerCompare) {
        ByteBuffer in = joins.duplicate();
        byte[] a = in.array();
        StringMembershipView view = new StringMembershipView(RINGS, hashPerCompare);
        while (in.hasRemaining()) {
            int len = in.get();
            int off = in.position();
            in.position(off + len);
            int port = in.getShort() & 0xFFFF;
            view.add(new StringEndpoint(new String(a, off, len, StandardCharsets.UTF_8), port));
        }
        return view.configurationId();
    }
}
