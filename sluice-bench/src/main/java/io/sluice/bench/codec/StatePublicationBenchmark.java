package io.sluice.bench.codec;

import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.SnapshotRecord;
import io.sluice.cluster.state.wire.StateMessages;
import io.sluice.codec.compress.Compression;
import io.sluice.codec.compress.StateCodec;
import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.message.MessageWriter;
import io.sluice.codec.part.PartSplitter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;
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
 * Benchmark 3 of issue 4: publishing the cluster state (sluice-cluster's live {@link SnapshotRecord} of a
 * {@link ClusterState}: 12 brokers, topics of 64 partitions) of about 2 KB, 130 KB or 1.6 MB uncompressed. {@code streaming*}: {@link StateCodec} writes the message straight through the compressor into a
 * {@link PartSplitter} (parts of at most jute.maxbuffer minus 1 KB, ready for ZooKeeper). {@code baselineMaterialize}:
 * the seed's "old" way, serialize to a byte[] then compress it into another byte[] (no splitting, which favours it).
 * One op = one publication of a snapshot record made from the state, as the controller makes one per snapshot; the
 * codec is long-lived, as on the controller thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class StatePublicationBenchmark {
    /** ZooKeeper's default jute.maxbuffer (1 MB) minus 1 KB of znode overhead. */
    static final int PART_LIMIT = (1 << 20) - 1024;

    @Param({"2K", "130K", "1600K"})
    public String size;

    private ClusterState state;
    private StateCodec codec;
    /** Long-lived like the codec: the controller's serializer keeps one and its scratch. */
    private PartSplitter splitter;

    private int uncompressedBytes;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        int target = Integer.parseInt(size.substring(0, size.length() - 1)) * 1024;
        int partitions = Math.max(1, target / 12);
        state = clusterState(partitions);
        uncompressedBytes = serialize(state).length;
        codec = new StateCodec(StateMessages.REGISTRY);
        splitter = new PartSplitter(PART_LIMIT);
        byte[] base = baselineMaterialize();
        byte[] inflated = new InflaterInputStream(new java.io.ByteArrayInputStream(base)).readAllBytes();
        PartSplitter parts = new PartSplitter(PART_LIMIT);
        codec.compress(state.toSnapshot(), Compression.ZLIB, parts);
        List<byte[]> zlibParts = parts.finish(Compression.ZLIB);
        SnapshotRecord back = (SnapshotRecord) codec.decompress(Compression.ZLIB, stripHeaders(zlibParts));
        if (!java.util.Arrays.equals(inflated, serialize(state))
                || !ClusterState.fromSnapshot(back).sameContent(state)) {
            throw new IllegalStateException("baseline and streaming do not agree");
        }
        System.out.println("size=" + size + " partitions=" + partitions + " uncompressed=" + uncompressedBytes
                + " zlib=" + base.length + " streamed parts=" + zlibParts.size());
    }

    private static List<ByteBuffer> stripHeaders(List<byte[]> parts) {
        List<ByteBuffer> out = new ArrayList<>();
        for (byte[] p : parts) {
            out.add(ByteBuffer.wrap(
                            p,
                            io.sluice.codec.part.PartDescriptor.PAYLOAD_OFFSET,
                            p.length - io.sluice.codec.part.PartDescriptor.PAYLOAD_OFFSET)
                    .slice());
        }
        return out;
    }

    /** 12 brokers and {@code partitions} partitions in topics of 64, replicas, leaders, epochs and ISRs varied. */
    static ClusterState clusterState(int partitions) {
        Random rnd = new Random(partitions);
        List<BrokerInfo> brokers = new ArrayList<>();
        for (int b = 0; b < 12; b++) {
            brokers.add(BrokerInfo.of(b, "rack-" + b % 3, Endpoint.of("broker-" + b + ".prod.internal", 9092)));
        }
        List<TopicState> topics = new ArrayList<>();
        for (int first = 0; first < partitions; first += 64) {
            PartitionState[] ps = new PartitionState[Math.min(64, partitions - first)];
            for (int p = 0; p < ps.length; p++) {
                int leader = rnd.nextInt(brokers.size());
                int[] replicas = {leader, (leader + 1) % 12, (leader + 2) % 12};
                int[] isr = rnd.nextInt(10) == 0 ? new int[] {leader, (leader + 1) % 12} : replicas;
                ps[p] = new PartitionState(replicas, leader, rnd.nextInt(50), isr, rnd.nextInt(500));
            }
            topics.add(new TopicState(new UUID(rnd.nextLong(), rnd.nextLong()), "orders-" + first / 64, Map.of(), ps));
        }
        return ClusterState.of(7, 1234, brokers, topics);
    }

    /** The uncompressed encoding, the naive way: through an 8 KB buffer into a growing byte array. */
    static byte[] serialize(ClusterState state) {
        SnapshotRecord snapshot = state.toSnapshot();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MessageWriter w = new MessageWriter();
        ByteBuffer chunk = ByteBuffer.allocate(8192);
        w.setBuffer(chunk);
        boolean done;
        do {
            done = w.write(snapshot);
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
        codec.compress(state.toSnapshot(), Compression.ZLIB, splitter);
        return splitter.finish(Compression.ZLIB);
    }

    @Benchmark
    public List<byte[]> streamingZstd() {
        codec.compress(state.toSnapshot(), Compression.ZSTD, splitter);
        return splitter.finish(Compression.ZSTD);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        codec.close();
    }
}
