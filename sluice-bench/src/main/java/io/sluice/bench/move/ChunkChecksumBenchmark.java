package io.sluice.bench.move;

import io.sluice.log.ship.SegmentRangeChecksum;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * Issue 13, the source's share of a move: vouching for every 1 MiB chunk of a closed segment with a CRC-32C. One op =
 * the chunks of one {@code segmentMb} MB segment of zstd batches (ProducerPerformance-like values: random upper-case
 * letters; about {@code batchKb} KiB of records per batch), in the page cache. {@code fromHeaders}: Sluice's
 * {@link SegmentRangeChecksum#of}, whole batches from their stored CRC-32C, the two cut batches read;
 * {@code everyByte}: the same ranges read through a direct buffer and checksummed byte by byte (what the source did
 * before). Divide ms/op by the segment's GB for CPU seconds per GB (one thread, so time is CPU).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ChunkChecksumBenchmark {
    private static final int CHUNK_BYTES = 1 << 20;

    @Param({"64"})
    public int segmentMb;

    @Param({"16", "1"})
    public int batchKb;

    private Path file;
    private FileChannel channel;
    private int size;
    private SegmentRangeChecksum checksum;

    @Setup(Level.Trial)
    public void writeSegment() throws IOException {
        file = Files.createTempFile("chunk-checksum", ".log");
        SplittableRandom random = new SplittableRandom(42);
        byte[] value = new byte[1000];
        long offset = 0;
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
            while (out.size() < (long) segmentMb << 20) {
                MemoryRecordsBuilder builder = MemoryRecords.builder(
                        ByteBuffer.allocate(batchKb * 2048),
                        RecordBatch.CURRENT_MAGIC_VALUE,
                        Compression.zstd().build(),
                        TimestampType.CREATE_TIME,
                        offset);
                int records = Math.max(1, batchKb * 1024 / value.length);
                for (int i = 0; i < records; i++) {
                    for (int j = 0; j < value.length; j++) {
                        value[j] = (byte) ('A' + random.nextInt(26));
                    }
                    builder.append(1_700_000_000_000L, null, value);
                }
                offset += records;
                ByteBuffer batch = builder.build().buffer();
                while (batch.hasRemaining()) {
                    out.write(batch);
                }
            }
        }
        channel = FileChannel.open(file, StandardOpenOption.READ);
        size = (int) channel.size();
        checksum = new SegmentRangeChecksum();
        if (fromHeaders() != everyByte()) {
            throw new IllegalStateException("the two ways disagree");
        }
    }

    @TearDown(Level.Trial)
    public void removeSegment() throws IOException {
        channel.close();
        Files.delete(file);
    }

    @Benchmark
    public int fromHeaders() throws IOException {
        int sum = 0;
        for (int at = 0; at < size; at += CHUNK_BYTES) {
            sum += checksum.of(channel, at, Math.min(CHUNK_BYTES, size - at), size);
        }
        return sum;
    }

    @Benchmark
    public int everyByte() throws IOException {
        int sum = 0;
        for (int at = 0; at < size; at += CHUNK_BYTES) {
            sum += checksum.ofBytes(channel, at, Math.min(CHUNK_BYTES, size - at));
        }
        return sum;
    }
}
