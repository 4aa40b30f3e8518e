package io.sluice.bench.codec;

import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.StateMessages;
import io.sluice.cluster.state.wire.TopicRecord;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Benchmark 2 of issue 4: a message with two compressed partition-map fields of 30 or 500 entries (about 1.4 KB and
 * 23 KB uncompressed: below and above the seed's 10 KB initial scratch), written through a 64 KB direct socket
 * buffer. Sluice's compressed fields ({@link CompressedFieldWriter}: reused nested writer, reused Deflater, reused
 * heap scratch) vs the seed's
 * "master" way ({@link NaiveCompressedField}). One op = one complete message.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CompressedFieldBenchmark {

    /** Partitions per map: about 1.4 KB and 24 KB uncompressed per field, below and above the seed's 10 KB scratch. */
    @Param({"110", "2000"})
    public int entries;

    private final ByteBuffer socket = ByteBuffer.allocateDirect(64 * 1024);
    private final MessageWriter writer = new MessageWriter();
    private final CompressedFieldWriter fieldWriter = new CompressedFieldWriter();
    private final ExchangeMessage message = new ExchangeMessage(fieldWriter);
    private long baselineOps;
    private long baselineDirectAtStart;

    @Setup(Level.Trial)
    public void setUp() {
        message.exchangeId = 12;
        TopicState local = topic(entries, 1);
        TopicState remote = topic(entries, 2);
        message.local = TopicRecord.of(local);
        message.remote = TopicRecord.of(remote);
        ByteBuffer all = ByteBuffer.allocate(1 << 20);
        writer.setBuffer(all);
        if (!writer.write(message)) {
            throw new IllegalStateException("message larger than 1 MB");
        }
        all.flip();
        int wire = all.remaining();
        ExchangeMessage back;
        try (CompressedFieldReader fieldReader = new CompressedFieldReader(StateMessages.REGISTRY)) {
            MessageReader reader = new MessageReader(ExchangeMessage.registry(fieldReader));
            reader.setBuffer(all);
            back = (ExchangeMessage) reader.read();
        }
        if (back == null
                || !back.local.toTopic().equals(local)
                || !back.remote.toTopic().equals(remote)) {
            throw new IllegalStateException("compressed exchange message does not round-trip");
        }
        System.out.println("entries=" + entries + " message on the wire: " + wire + " bytes");
        baselineDirectAtStart = NaiveCompressedField.DIRECT_BYTES.get();
    }

    /** A topic of {@code n} partitions on 5 brokers, with varied leaders, epochs and ISRs. */
    static TopicState topic(int n, long seed) {
        Random rnd = new Random(seed);
        PartitionState[] ps = new PartitionState[n];
        for (int p = 0; p < n; p++) {
            int[] replicas = {1 + p % 5, 1 + (p + 1) % 5, 1 + (p + 2) % 5};
            int[] isr = rnd.nextInt(10) == 0 ? new int[] {replicas[0], replicas[1]} : replicas;
            ps[p] = new PartitionState(replicas, replicas[0], 3 + rnd.nextInt(3), isr, rnd.nextInt(500));
        }
        return new TopicState(new UUID(rnd.nextLong(), rnd.nextLong()), "exchange-" + seed, Map.of(), ps);
    }

    @Benchmark
    public int sluice() {
        message.naive = false;
        return write();
    }

    @Benchmark
    public int baselineMaster() {
        message.naive = true;
        message.startWrite();
        baselineOps++;
        return write();
    }

    private int write() {
        ByteBuffer buf = socket;
        writer.setBuffer(buf);
        while (!writer.write(message)) {
            buf.clear();
            writer.setBuffer(buf);
        }
        int pos = buf.position();
        buf.clear();
        return pos;
    }

    @TearDown(Level.Trial)
    public void report() {
        if (baselineOps > 0) {
            long direct = NaiveCompressedField.DIRECT_BYTES.get() - baselineDirectAtStart;
            System.out.println("baselineMaster direct bytes per op: " + direct / baselineOps);
        }
        System.out.println("sluice writer scratch retained: " + fieldWriter.scratchCapacity() + " bytes");
        fieldWriter.close();
    }
}
