package io.sluice.bench.move;

import io.sluice.log.index.OffsetIndex;
import io.sluice.log.index.TimeIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
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

/**
 * The index files of one segment, as a move's target builds them for every segment it installs and a broker for
 * every segment it rolls. {@code buildAndPersist}: one op = a new offset index and time index of {@code entries}
 * entries each (one per 4 KiB batch of a 128 MiB segment at the default 32768), appended, then written and fsynced
 * ({@link OffsetIndex#persist()}); the files go to {@code /dev/shm} where it exists, so the fsync costs next to
 * nothing and the op measures the broker's own work. {@code lookup}: 1,024 offset lookups (binary searches) in a
 * filled offset index in the heap, as fetches run them on an active segment. One thread; time is CPU.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SegmentIndexBenchmark {
    private static final int LOOKUPS = 1024;
    private static final int MAX_INDEX_BYTES = 10 << 20;
    private static final long BASE_OFFSET = 1_000_000;
    private static final int RECORDS_PER_BATCH = 40;
    private static final int BATCH_BYTES = 4096;

    @Param({"32768"})
    public int entries;

    private Path dir;
    private OffsetIndex filled;
    private long[] targets;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Path shm = Path.of("/dev/shm");
        dir = Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempDirectory(shm, "segment-index")
                : Files.createTempDirectory("segment-index");
        filled = OffsetIndex.empty(dir.resolve("filled.index"), BASE_OFFSET, MAX_INDEX_BYTES);
        for (int i = 0; i < entries; i++) {
            filled.append(lastOffsetOfBatch(i), i * BATCH_BYTES);
        }
        SplittableRandom random = new SplittableRandom(7);
        targets = new long[LOOKUPS];
        for (int i = 0; i < LOOKUPS; i++) {
            targets[i] = BASE_OFFSET + random.nextLong((long) entries * RECORDS_PER_BATCH);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }

    @Benchmark
    public long buildAndPersist() throws IOException {
        OffsetIndex offsets = OffsetIndex.empty(dir.resolve("segment.index"), BASE_OFFSET, MAX_INDEX_BYTES);
        TimeIndex times = TimeIndex.empty(dir.resolve("segment.timeindex"), BASE_OFFSET, MAX_INDEX_BYTES);
        for (int i = 0; i < entries; i++) {
            long lastOffset = lastOffsetOfBatch(i);
            offsets.append(lastOffset, i * BATCH_BYTES);
            times.maybeAppend(1_700_000_000_000L + i, lastOffset);
        }
        offsets.persist();
        times.persist();
        return offsets.sizeInBytes() + times.sizeInBytes();
    }

    @Benchmark
    public long lookup() {
        long sum = 0;
        for (long target : targets) {
            sum += filled.lookup(target);
        }
        return sum;
    }

    private static long lastOffsetOfBatch(int batch) {
        return BASE_OFFSET + (long) (batch + 1) * RECORDS_PER_BATCH - 1;
    }
}
