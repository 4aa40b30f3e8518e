package io.sluice.bench.clean;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * One full clean of a dirty compacted log: {@link #sluice} (Sluice's LogCleaner thread) against {@link #kafka} (Apache
 * Kafka 3.9's kafka.log.Cleaner), on byte-identical input. Before every invocation (not measured) a new log is
 * created, the same {@link DirtyLog} batches are appended to it one by one as a follower appends them, the log is
 * fsynced, and its segment files are checked to be exactly those batches in the same segment layout for both systems.
 * The invocation then cleans everything below the active segment once (offset map, rewrite of every dirty segment,
 * swap). After it (not measured) the records left below the active segment are counted and must be one per key, and
 * one line is printed: MiB/s of dirty log cleaned, bytes allocated by the benchmark and cleaner threads during the
 * clean and during the setup (JMH's {@code -prof gc} counts both: the setup runs inside the iteration), and the
 * offset map held.
 *
 * <p>Run in single-shot mode (one clean per iteration); each clean needs its own fresh log. Both cleaners live for the
 * whole trial, as a broker's cleaner threads do, and get the same dedupe buffer ({@link #dedupeMB}). Everything is in
 * the page cache: the clean reads what setup just wrote and fsynced.
 *
 * <pre>
 * java -cp 'sluice-bench/target/classes:sluice-bench/target/lib/*' org.openjdk.jmh.Main LogCleanerBenchmark -prof gc
 * </pre>
 *
 * <p>Not thread-safe; JMH gives each thread its own state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@Warmup(iterations = 4)
@Measurement(iterations = 4)
public class LogCleanerBenchmark {
    static final String TOPIC = "bench";
    private static final long SEED = 14L;
    private static final double MIB = 1024.0 * 1024.0;

    @Param({"none", "lz4", "zstd"})
    public String codec;

    /** Bytes of each record's value (keys are 12 bytes). */
    @Param({"100", "1000"})
    public int valueBytes;

    /** Distinct keys the records are drawn from, uniformly. */
    @Param({"100000"})
    public int keys;

    /** Size of the dirty section (closed segments) on disk, rounded up to whole segments. */
    @Param({"256"})
    public int dirtyMB;

    @Param({"32"})
    public int segmentMB;

    /** log.cleaner.dedupe.buffer.size of both (one cleaner thread); Kafka's default is 128 MiB. */
    @Param({"128"})
    public int dedupeMB;

    private DirtyLog input;
    private CleanerRig rig;
    private String system;
    private Path root;
    private int invocation;
    private long[] allocatingThreads;
    private long setupAllocated;
    private long cleanAllocated;
    private long cleanNanos;

    @Setup(Level.Trial)
    public void setUpTrial(BenchmarkParams params) throws Exception {
        input = DirtyLog.build(codec, (long) dirtyMB << 20, valueBytes, keys, segmentMB << 20, SEED);
        root = Files.createTempDirectory("cleaner-bench");
        system = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        rig = system.equals("kafka")
                ? new KafkaCleanerRig(root, segmentMB << 20, (long) dedupeMB << 20)
                : new SluiceCleanerRig(root, segmentMB << 20, (long) dedupeMB << 20);
        long[] cleanerThreads = rig.cleanerThreadIds();
        allocatingThreads = new long[cleanerThreads.length + 1];
        allocatingThreads[0] = Thread.currentThread().getId();
        System.arraycopy(cleanerThreads, 0, allocatingThreads, 1, cleanerThreads.length);
        System.out.printf(
                java.util.Locale.ROOT,
                "%n[cleaner-bench] input: %d records in %d batches, %.1f MiB dirty in %d closed segments, "
                        + "%d distinct keys below the active segment; %s offset map held after a clean: %.1f MiB "
                        + "(dedupe buffer %d MiB)%n",
                input.records(),
                input.batchCount(),
                input.dirtyBytes() / MIB,
                input.segmentBases().length - 1,
                input.distinctKeysBelowActive(),
                system,
                rig.offsetMapBytes(input) / MIB,
                dedupeMB);
    }

    @Setup(Level.Invocation)
    public void createDirtyLog() throws IOException {
        long allocated = allocatedBytes();
        Path dir = rig.create(invocation++);
        for (int i = 0; i < input.batchCount(); i++) {
            rig.append(input.batch(i));
        }
        rig.flush();
        input.checkWrittenAsIs(dir);
        setupAllocated = allocatedBytes() - allocated;
        cleanAllocated = allocatedBytes();
        cleanNanos = System.nanoTime();
    }

    @Benchmark
    public long sluice() throws IOException {
        return cleanOnce();
    }

    @Benchmark
    public long kafka() throws IOException {
        return cleanOnce();
    }

    private long cleanOnce() throws IOException {
        long end = rig.clean();
        cleanNanos = System.nanoTime() - cleanNanos;
        cleanAllocated = allocatedBytes() - cleanAllocated;
        if (end != input.activeBase()) {
            throw new IllegalStateException(
                    system + " cleaned up to " + end + ", not to the active segment at " + input.activeBase());
        }
        return end;
    }

    @TearDown(Level.Invocation)
    public void checkAndDeleteLog() throws IOException {
        long kept = input.recordsBelowActive(root.resolve(TOPIC + "-" + (invocation - 1)));
        long expected = input.distinctKeysBelowActive();
        System.out.printf(
                java.util.Locale.ROOT,
                "%n[cleaner-bench] %s %s %d B x %d keys: %.1f MiB dirty in %.3f s = %.1f MiB/s; "
                        + "allocated %.1f MiB by the clean, %.1f MiB by the setup; kept %d records; %s%n",
                system,
                codec,
                valueBytes,
                keys,
                input.dirtyBytes() / MIB,
                cleanNanos / 1e9,
                input.dirtyBytes() / MIB / (cleanNanos / 1e9),
                cleanAllocated / MIB,
                setupAllocated / MIB,
                kept,
                rig.lastCleanStats());
        rig.deleteLog();
        if (kept != expected) {
            throw new IllegalStateException(system + " kept " + kept
                    + " records below the active segment, expected one " + "per key: " + expected);
        }
    }

    @TearDown(Level.Trial)
    public void tearDownTrial() throws Exception {
        rig.close();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    @io.sluice.codec.SuppressForbidden(reason = "per-thread allocation counters exist only in com.sun.management")
    private long allocatedBytes() {
        long[] bytes = ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(allocatingThreads);
        long sum = 0;
        for (long b : bytes) {
            sum += Math.max(0, b);
        }
        return sum;
    }
}
