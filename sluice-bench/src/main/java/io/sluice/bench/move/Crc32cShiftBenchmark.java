package io.sluice.bench.move;

import io.sluice.record.batch.Crc32cCombine;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 13, the arithmetic both sides of a move do per record batch: {@link Crc32cCombine#shift} of a running
 * checksum past a batch. One op = one shift; each invocation chains {@value #SHIFTS} shifts (each feeds the next, as
 * a walk over consecutive batches does) by lengths drawn once from the batch sizes of a zstd segment (1-64 KiB, two
 * non-zero length bytes) or from the 21 header bytes a walk appends before each stored CRC ({@code header}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class Crc32cShiftBenchmark {
    private static final int SHIFTS = 1024;
    /** The header bytes before a batch's CRC-covered part (RecordBatchDescriptor.ATTRIBUTES_OFFSET). */
    private static final int HEADER_BYTES = 21;

    private final int[] batchLengths = new int[SHIFTS];

    @Setup
    public void drawLengths() {
        SplittableRandom random = new SplittableRandom(13);
        for (int i = 0; i < SHIFTS; i++) {
            batchLengths[i] = random.nextInt(1 << 10, 1 << 16);
        }
    }

    @Benchmark
    @OperationsPerInvocation(SHIFTS)
    public int batch() {
        int crc = 0x12345678;
        for (int length : batchLengths) {
            crc = Crc32cCombine.shift(crc, length) ^ length;
        }
        return crc;
    }

    @Benchmark
    @OperationsPerInvocation(SHIFTS)
    public int header() {
        int crc = 0x12345678;
        for (int i = 0; i < SHIFTS; i++) {
            crc = Crc32cCombine.shift(crc, HEADER_BYTES) ^ i;
        }
        return crc;
    }
}
