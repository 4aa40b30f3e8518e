package io.sluice.bench.move;

import io.sluice.broker.config.MoveConfig;
import io.sluice.broker.move.ByteRateLimiter;
import io.sluice.broker.move.MoveFrameDescriptor;
import io.sluice.broker.move.MoveSource;
import io.sluice.broker.move.MoveSourceLogs;
import io.sluice.broker.move.MoveTransferClient;
import io.sluice.broker.move.TransferProgress;
import io.sluice.broker.network.ApiRegistry;
import io.sluice.broker.network.MoveSourceHandler;
import io.sluice.broker.network.NetworkServer;
import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 13: a partition of {@code sizeMb} MB of closed segments moved to an empty log over loopback. Sluice's engine
 * (sendfile at the source, transferFrom into staging, chunk and batch CRC-32C, install) vs the naive way: each
 * segment file streamed through heap arrays on both sides with a CRC-32C over the heap copy. One op = one whole
 * partition. Run with {@code -prof gc}: the engine's {@code gc.alloc.rate.norm} stays near constant in the size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(1)
public class PartitionMoveBenchmark {
    private static final int BATCH_BYTES = 256 * 1024;
    private static final int NAIVE_BUFFER_BYTES = 64 * 1024;

    @Param({"256"})
    public int sizeMb;

    private Path root;
    private PartitionLog source;
    private NetworkServer server;
    private MoveSource moveSource;
    private ServerSocket naiveServer;
    private Thread naiveThread;
    private PartitionLog target;
    private Path targetDir;
    private int invocation;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        root = Files.createTempDirectory("sluice-move-bench");
        LogConfig config = LogConfig.builder().segmentBytes(64 << 20).build();
        source = PartitionLog.open(root.resolve("source/bench-0"), config, new RecoveryReport());
        SplittableRandom random = new SplittableRandom(13);
        byte[] value = new byte[BATCH_BYTES];
        long ts = System.currentTimeMillis();
        while (source.sizeInBytes() < (long) sizeMb << 20) {
            for (int i = 0; i < value.length; i++) {
                value[i] = (byte) random.nextInt();
            }
            MemoryRecordsBuilder builder = MemoryRecords.builder(
                    ByteBuffer.allocate(BATCH_BYTES + 1024),
                    RecordBatch.CURRENT_MAGIC_VALUE,
                    Compression.NONE,
                    TimestampType.CREATE_TIME,
                    0L);
            builder.append(ts, null, value);
            source.appendAsLeader(builder.build().buffer(), 0, ts);
        }
        source.appendAsLeader(
                MemoryRecords.withRecords(
                                Compression.NONE, new org.apache.kafka.common.record.SimpleRecord(ts, new byte[10]))
                        .buffer(),
                0,
                ts);
        source.flush();
        moveSource = new MoveSource(
                (topic, partition) -> new MoveSourceLogs.Hosted(source, 0, source.logEndOffset()),
                MoveConfig.defaults().withMaxConcurrentMoves(4),
                ByteRateLimiter.UNLIMITED,
                System::currentTimeMillis);
        server = NetworkServer.start(
                new NetworkServer.Settings("127.0.0.1", 0, 1, 1, 1 << 20, 0, 0, 0),
                new ApiRegistry().registerPrivate(MoveFrameDescriptor.API_KEY, new MoveSourceHandler(moveSource)));
        naiveServer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        naiveThread = new Thread(this::serveNaive, "naive-move-source");
        naiveThread.setDaemon(true);
        naiveThread.start();
    }

    @Setup(Level.Invocation)
    public void emptyTarget() throws IOException {
        targetDir = root.resolve("target-" + invocation++).resolve("bench-0");
        target = PartitionLog.open(
                targetDir, LogConfig.builder().segmentBytes(64 << 20).build(), new RecoveryReport());
    }

    @TearDown(Level.Invocation)
    public void dropTarget() throws IOException {
        target.deleteFiles();
    }

    @Benchmark
    public long sluiceMove() throws Exception {
        return new MoveTransferClient(MoveConfig.defaults(), ByteRateLimiter.UNLIMITED)
                .bootstrap(target, "bench", 0, List.of(server.boundAddress()), -1, new TransferProgress());
    }

    /** The naive way: every closed segment through heap arrays at both ends, CRC-32C over the received heap copy. */
    @Benchmark
    public long naiveHeapCopy() throws IOException {
        long[] bases = source.segmentBaseOffsets();
        CRC32C crc = new CRC32C();
        byte[] buffer = new byte[NAIVE_BUFFER_BYTES];
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), naiveServer.getLocalPort())) {
            InputStream in = socket.getInputStream();
            for (int i = 0; i < bases.length - 1; i++) {
                long size = Files.size(segment(source.dir(), bases[i]));
                try (OutputStream out = Files.newOutputStream(segment(targetDir, bases[i]))) {
                    long left = size;
                    while (left > 0) {
                        int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                        if (n < 0) {
                            throw new IOException("naive source closed early");
                        }
                        crc.update(buffer, 0, n);
                        out.write(buffer, 0, n);
                        left -= n;
                    }
                }
            }
        }
        return crc.getValue();
    }

    private void serveNaive() {
        byte[] buffer = new byte[NAIVE_BUFFER_BYTES];
        while (!naiveServer.isClosed()) {
            try (Socket socket = naiveServer.accept();
                    OutputStream out = socket.getOutputStream()) {
                long[] bases = source.segmentBaseOffsets();
                for (int i = 0; i < bases.length - 1; i++) {
                    try (InputStream in = Files.newInputStream(segment(source.dir(), bases[i]))) {
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            out.write(buffer, 0, n);
                        }
                    }
                }
            } catch (IOException e) {
                if (naiveServer.isClosed()) {
                    return;
                }
            }
        }
    }

    private static Path segment(Path dir, long base) {
        return dir.resolve(String.format(Locale.ROOT, "%020d.log", base));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        naiveServer.close();
        server.close();
        moveSource.close();
        source.close();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** For a run without JMH: one transfer of each kind, timed. */
    public static void main(String[] args) throws Exception {
        PartitionMoveBenchmark bench = new PartitionMoveBenchmark();
        bench.sizeMb = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        bench.setUp();
        try {
            for (int round = 0; round < 3; round++) {
                bench.emptyTarget();
                long start = System.nanoTime();
                bench.sluiceMove();
                long sluice = System.nanoTime() - start;
                bench.dropTarget();
                bench.emptyTarget();
                start = System.nanoTime();
                bench.naiveHeapCopy();
                long naive = System.nanoTime() - start;
                bench.dropTarget();
                System.out.printf(
                        Locale.ROOT,
                        "%d MB: sluice %d ms, naive %d ms%n",
                        bench.sizeMb,
                        sluice / 1_000_000,
                        naive / 1_000_000);
            }
        } finally {
            bench.tearDown();
        }
    }
}
