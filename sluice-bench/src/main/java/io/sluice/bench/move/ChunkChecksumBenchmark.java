package io.sluice.bench.move;

import io.sluice.log.segment.BatchStreamCheck;
import io.sluice.log.ship.SegmentRangeChecksum;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * Issue 13, the source's share of a move: vouching for every 1 MiB chunk of a closed segment with a CRC-32C. One op =
 * the chunks of one {@code segmentMb} MB segment of zstd batches (ProducerPerformance-like values: random upper-case
 * letters; about {@code batchKb} KiB of records per batch), in the page cache. {@code fromHeaders}: Sluice's
 * {@link SegmentRangeChecksum#of}, whole batches from their stored CRC-32C, the two cut batches read;
 * {@code everyByte}: the same ranges read through a direct buffer and checksummed byte by byte (what the source did
 * before). The target's share, on the same segment held in one direct buffer (as received, before it is written):
 * {@code targetCheck}, {@link BatchStreamCheck} over it in runs of 256 KiB (every batch's CRC-32C, the batch walk,
 * the chunk checksums derived from the batch CRCs), against {@code crc32cOnly}, the JDK's CRC-32C over the same bytes
 * in 1 MiB slices (what this processor's CRC instructions cost per byte). Divide ms/op by the segment's GB for CPU
 * seconds per GB (one thread, so time is CPU).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ChunkChecksumBenchmark {
    private static final int CHUNK_BYTES = 1 << 20;
    /** The target hands received bytes to its batch check in runs of this size. */
    private static final int RUN_BYTES = 256 << 10;
    /** The target builds its indexes from the checked batches; here they are dropped. */
    private static final BatchStreamCheck.CheckedBatchSink IGNORE_CHECKED =
            (position, sizeInBytes, batchLastOffset, maxTimestamp) -> {};

    @Param({"64"})
    public int segmentMb;

    @Param({"16", "1"})
    public int batchKb;

    private Path file;
    private FileChannel channel;
    private int size;
    private SegmentRangeChecksum checksum;
    private ByteBuffer received;
    private long lastOffset;
    private final CRC32C crc = new CRC32C();

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
        lastOffset = offset - 1;
        channel = FileChannel.open(file, StandardOpenOption.READ);
        size = (int) channel.size();
        checksum = new SegmentRangeChecksum();
        if (fromHeaders() != everyByte()) {
            throw new IllegalStateException("the two ways disagree");
        }
        received = ByteBuffer.allocateDirect(size);
        while (received.hasRemaining() && channel.read(received, received.position()) >= 0) {
            // reads the whole segment
        }
        if (targetCheck() != crc32cOnly()) {
            throw new IllegalStateException("the batch check's range checksum disagrees with the bytes' CRC-32C");
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

    /** The target's check of one received segment; returns its range checksum (the whole segment's CRC-32C). */
    @Benchmark
    public int targetCheck() {
        BatchStreamCheck check = new BatchStreamCheck(size, lastOffset);
        check.startRange();
        for (int at = 0; at < size; at += RUN_BYTES) {
            check.accept(received.slice(at, Math.min(RUN_BYTES, size - at)));
            check.drainChecked(IGNORE_CHECKED);
        }
        if (!check.completeAndWhole()) {
            throw new IllegalStateException("the segment failed its check: " + check.endProblem());
        }
        return check.rangeCrc();
    }

    /** The JDK's CRC-32C over the received segment. */
    @Benchmark
    public int crc32cOnly() {
        crc.reset();
        for (int at = 0; at < size; at += CHUNK_BYTES) {
            crc.update(received.slice(at, Math.min(CHUNK_BYTES, size - at)));
        }
        return (int) crc.getValue();
    }
}
