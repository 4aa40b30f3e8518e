package io.sluice.bench.codec;

import io.sluice.codec.cluster.ClusterMessages;
import io.sluice.codec.cluster.PartitionAssignment;
import io.sluice.codec.cluster.PartitionMap;
import io.sluice.codec.compress.Compression;
import io.sluice.codec.compress.StateCodec;
import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.message.MessageWriter;
import io.sluice.codec.part.PartSplitter;
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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

/**
 * Benchmark 3 of issue 4: publishing the cluster state (a {@link PartitionMap}) of about 2 KB, 130 KB or 1.6 MB
 * uncompressed. {@code streaming*}: {@link StateCodec} writes the message straight through the compressor into a
 * {@link PartSplitter} (parts of at most jute.maxbuffer minus 1 KB, ready for ZooKeeper). {@code baselineMaterialize}:
 * the seed's "old" way, serialize to a byte[] then compress it into another byte[] (no splitting, which favours it).
 * One op = one publication; the codec is long-lived, as on the controller thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class StatePublicationBenchmark {
    /** ZooKeeper's default jute.maxbuffer (1 MB) minus 1 KB of znode overhead. */
    static final int PART_LIMIT = (1 << 20) - 1024;

    @Param({"2K", "130K", "1600K"})
    public String size;

    private PartitionMap state;
    private StateCodec codec;
    private int uncompressedBytes;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        int target = Integer.parseInt(size.substring(0, size.length() - 1)) * 1024;
        int partitions = Math.max(1, target / 46);
        state = partitionMap(partitions);
        uncompressedBytes = serialize(state).length;
        codec = new StateCodec(ClusterMessages.REGISTRY);
        byte[] base = baselineMaterialize();
        byte[] inflated = new InflaterInputStream(new java.io.ByteArrayInputStream(base)).readAllBytes();
        PartSplitter parts = new PartSplitter(PART_LIMIT);
        codec.compress(state, Compression.ZLIB, parts);
        List<byte[]> zlibParts = parts.finish(Compression.ZLIB);
        if (!java.util.Arrays.equals(inflated, serialize(state))
                || !codec.decompress(Compression.ZLIB, stripHeaders(zlibParts)).equals(state)) {
            throw new IllegalStateException("baseline and streaming do not agree");
        }
        System.out.println("size=" + size + " partitions=" + partitions + " uncompressed=" + uncompressedBytes
                + " zlib=" + base.length + " streamed parts=" + zlibParts.size());
    }

    private static List<ByteBuffer> stripHeaders(List<byte[]> parts) {
        List<ByteBuffer> out = new ArrayList<>();
        for (byte[] p : parts) {
            out.add(ByteBuffer.wrap(p, io.sluice.codec.part.PartDescriptor.PAYLOAD_OFFSET,
                    p.length - io.sluice.codec.part.PartDescriptor.PAYLOAD_OFFSET).slice());
        }
        return out;
    }

    static PartitionMap partitionMap(int partitions) {
        Random rnd = new Random(partitions);
        List<Endpoint> brokers = new ArrayList<>();
        int[] ids = new int[12];
        for (int b = 0; b < ids.length; b++) {
            brokers.add(Endpoint.of("broker-" + b + ".prod.internal", 9092));
            ids[b] = b;
        }
        List<PartitionAssignment> list = new ArrayList<>(partitions);
        UUID topic = null;
        String name = null;
        for (int p = 0; p < partitions; p++) {
            if (p % 64 == 0) {
                topic = new UUID(rnd.nextLong(), rnd.nextLong());
                name = "orders-" + (p / 64);
            }
            int leader = rnd.nextInt(ids.length);
            int[] replicas = {leader, (leader + 1) % ids.length, (leader + 2) % ids.length};
            list.add(new PartitionAssignment(topic, name, p % 64, replicas, leader, rnd.nextInt(50),
                    rnd.nextInt(10) == 0 ? new int[]{leader, (leader + 1) % ids.length} : replicas, rnd.nextInt(500)));
        }
        return new PartitionMap(7, 1234, brokers, ids, list);
    }

    /** The uncompressed encoding, the naive way: through an 8 KB buffer into a growing byte array. */
    static byte[] serialize(PartitionMap state) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MessageWriter w = new MessageWriter();
        ByteBuffer chunk = ByteBuffer.allocate(8192);
        w.setBuffer(chunk);
        boolean done;
        do {
            done = w.write(state);
            out.write(chunk.array(), 0, chunk.position());
            chunk.clear();
            w.setBuffer(chunk);
        } while (!done);
        return out.toByteArray();
    }

    @Benchmark
    public byte[] baselineMaterialize() throws IOException {
        byte[] plain = serialize(state);
        ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length);
        try (DeflaterOutputStream z = new DeflaterOutputStream(out)) {
            z.write(plain);
        }
        return out.toByteArray();
    }

    @Benchmark
    public List<byte[]> streamingZlib() {
        PartSplitter parts = new PartSplitter(PART_LIMIT);
        codec.compress(state, Compression.ZLIB, parts);
        return parts.finish(Compression.ZLIB);
    }

    @Benchmark
    public List<byte[]> streamingZstd() {
        PartSplitter parts = new PartSplitter(PART_LIMIT);
        codec.compress(state, Compression.ZSTD, parts);
        return parts.finish(Compression.ZSTD);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        codec.close();
    }
}
