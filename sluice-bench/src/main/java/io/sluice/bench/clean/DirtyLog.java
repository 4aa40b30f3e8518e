package io.sluice.bench.clean;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.DefaultRecordBatch;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.Records;
import org.apache.kafka.common.record.TimestampType;

/**
 * The input of {@link LogCleanerBenchmark}: a deterministic stream of keyed v2 batches with their offsets already
 * assigned (what a follower appends), built with kafka-clients, so the same seed gives the same bytes in every fork.
 * Keys are {@code key-%08d} drawn uniformly from {@code keys}; values are JSON-like text of {@code valueBytes} bytes
 * (compressible about as well as real event payloads); a batch holds about the producer's default batch.size (16 KB)
 * of uncompressed records. The stream ends with the first batch of a new segment under Kafka's size-based roll rule,
 * so every byte up to it is in closed segments: the dirty section a cleaner may clean. Also knows the segment layout
 * both logs must end up with (segment.ms is unbounded in both, so only size rolls) and how many records a clean must
 * keep. Timestamps are fixed (November 2023, one millisecond per batch) so that every fork writes the same bytes.
 *
 * <p>Immutable after {@link #build}; thread-safe.
 */
final class DirtyLog {
    static final long BASE_TIMESTAMP = 1_700_000_000_000L;
    static final int BATCH_UNCOMPRESSED_BYTES = 16 * 1024;
    private static final int KEY_BYTES = "key-00000000".length();

    private final ByteBuffer stream;
    private final int[] batchStarts;
    private final long[] segmentBases;
    private final int[] keyOfOffset;
    private final int keys;
    private final long crc;

    private DirtyLog(ByteBuffer stream, int[] batchStarts, long[] segmentBases, int[] keyOfOffset, int keys) {
        this.stream = stream.asReadOnlyBuffer();
        this.batchStarts = batchStarts;
        this.segmentBases = segmentBases;
        this.keyOfOffset = keyOfOffset;
        this.keys = keys;
        CRC32C checksum = new CRC32C();
        checksum.update(stream.duplicate());
        this.crc = checksum.getValue();
    }

    /**
     * @param codec        none, gzip, snappy, lz4 or zstd (one codec per batch, as a producer writes)
     * @param dirtyBytes   closed segments of segmentBytes (nearly full: a batch that would overflow one starts the next)
     *                     until they add up to this many bytes
     * @param segmentBytes segment.bytes of both logs
     */
    static DirtyLog build(String codec, long dirtyBytes, int valueBytes, int keys, int segmentBytes, long seed) {
        Random random = new Random(seed);
        Compression compression = Compression.of(CompressionType.forName(codec)).build();
        int perBatch = Math.max(1, BATCH_UNCOMPRESSED_BYTES / (KEY_BYTES + valueBytes + 8));
        ByteBuffer out = ByteBuffer.allocate(1 << 20);
        List<Integer> starts = new ArrayList<>();
        List<Long> bases = new ArrayList<>();
        int[] keyOf = new int[1 << 16];
        long offset = 0;
        long segmentSize = 0;
        boolean ended = false;
        for (int b = 0; !ended; b++) {
            MemoryRecordsBuilder builder = MemoryRecords.builder(
                    ByteBuffer.allocate(perBatch * (KEY_BYTES + valueBytes + 32) + 1024),
                    RecordBatch.MAGIC_VALUE_V2,
                    compression,
                    TimestampType.CREATE_TIME,
                    offset,
                    BASE_TIMESTAMP + b,
                    RecordBatch.NO_PRODUCER_ID,
                    RecordBatch.NO_PRODUCER_EPOCH,
                    RecordBatch.NO_SEQUENCE,
                    false,
                    0);
            for (int r = 0; r < perBatch; r++, offset++) {
                int key = random.nextInt(keys);
                if (offset == keyOf.length) {
                    keyOf = Arrays.copyOf(keyOf, keyOf.length * 2);
                }
                keyOf[(int) offset] = key;
                builder.append(
                        BASE_TIMESTAMP + b,
                        String.format(java.util.Locale.ROOT, "key-%08d", key)
                                .getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        value(random, valueBytes));
            }
            ByteBuffer batch = builder.build().buffer();
            int size = batch.remaining();
            // Kafka's and Sluice's size rule: roll when the active segment is not empty and the append would overflow
            // it
            if (segmentSize > 0 && segmentSize + size > segmentBytes) {
                ended = (long) bases.size() * segmentBytes >= dirtyBytes;
                segmentSize = 0;
            }
            if (segmentSize == 0) {
                bases.add(offset - perBatch);
            }
            segmentSize += size;
            if (out.remaining() < size) {
                out = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 8, 2L * (out.capacity() + size)))
                        .put(out.flip());
            }
            starts.add(out.position());
            out.put(batch);
        }
        starts.add(out.position());
        return new DirtyLog(
                out.flip(),
                starts.stream().mapToInt(Integer::intValue).toArray(),
                bases.stream().mapToLong(Long::longValue).toArray(),
                Arrays.copyOf(keyOf, (int) offset),
                keys);
    }

    private static byte[] value(Random random, int size) {
        StringBuilder json = new StringBuilder(size + 96);
        while (json.length() < size) {
            json.append("{\"user\":")
                    .append(random.nextInt(1_000_000))
                    .append(",\"event\":\"")
                    .append(EVENTS[random.nextInt(EVENTS.length)])
                    .append("\",\"amount\":")
                    .append(random.nextInt(100_000))
                    .append(",\"region\":\"eu-")
                    .append(random.nextInt(8))
                    .append("\"},");
        }
        return json.substring(0, size).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static final String[] EVENTS = {"view", "click", "add_to_cart", "checkout", "refund", "login"};

    int batchCount() {
        return batchStarts.length - 1;
    }

    /** Batch {@code i} as a read-only slice of the stream. */
    ByteBuffer batch(int i) {
        return stream.duplicate()
                .position(batchStarts[i])
                .limit(batchStarts[i + 1])
                .slice();
    }

    /** Bytes of the closed segments: everything but the one batch in the active segment. */
    long dirtyBytes() {
        return batchStarts[batchCount() - 1];
    }

    /** Base offsets of the segments a log holding the stream must have, the last one active. */
    long[] segmentBases() {
        return segmentBases.clone();
    }

    /** Base offset of the active segment: every offset below it is dirty. */
    long activeBase() {
        return segmentBases[segmentBases.length - 1];
    }

    long records() {
        return keyOfOffset.length;
    }

    /** Records a clean keeps: the latest of each key below the active segment (there are no tombstones). */
    long distinctKeysBelowActive() {
        boolean[] seen = new boolean[keys];
        long distinct = 0;
        for (int i = 0; i < activeBase(); i++) {
            if (!seen[keyOfOffset[i]]) {
                seen[keyOfOffset[i]] = true;
                distinct++;
            }
        }
        return distinct;
    }

    /** Each record's key, in offset order, as the bytes the batches carry (for replaying keys into a map). */
    byte[] keyBytes(long offset) {
        return String.format(java.util.Locale.ROOT, "key-%08d", keyOfOffset[(int) offset])
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Checks that the {@code .log} files in {@code dir} are exactly the stream, split at {@link #segmentBases()}.
     *
     * @throws IllegalStateException naming the first difference
     */
    void checkWrittenAsIs(Path dir) throws IOException {
        List<Path> files = segmentFiles(dir);
        long[] found = files.stream().mapToLong(DirtyLog::baseOffsetOf).toArray();
        if (!Arrays.equals(found, segmentBases)) {
            throw new IllegalStateException(
                    dir + " has segments " + Arrays.toString(found) + ", expected " + Arrays.toString(segmentBases));
        }
        CRC32C checksum = new CRC32C();
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        for (Path file : files) {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                while (channel.read(buffer.clear()) > 0) {
                    checksum.update(buffer.flip());
                }
            }
        }
        if (checksum.getValue() != crc) {
            throw new IllegalStateException("the segment files of " + dir + " are not the generated batches");
        }
    }

    /**
     * Records of the closed segments of {@code dir} (base offset below {@link #activeBase()}), checking every batch's
     * CRC-32C; reads through one reused buffer, so the check allocates next to nothing.
     */
    long recordsBelowActive(Path dir) throws IOException {
        long records = 0;
        ByteBuffer batch = ByteBuffer.allocateDirect(1 << 20);
        CRC32C crc = new CRC32C();
        for (Path file : segmentFiles(dir)) {
            if (baseOffsetOf(file) >= activeBase()) {
                continue;
            }
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                for (long position = 0; position < channel.size(); position += batch.limit()) {
                    readFully(channel, batch.clear().limit(DefaultRecordBatch.RECORD_BATCH_OVERHEAD), position);
                    int size = batch.getInt(Records.SIZE_OFFSET) + Records.LOG_OVERHEAD;
                    if (size > batch.capacity()) {
                        batch = ByteBuffer.allocateDirect(size);
                    }
                    readFully(channel, batch.clear().limit(size), position);
                    crc.reset();
                    crc.update(batch.flip().position(CRC_COVERS_FROM));
                    if ((int) crc.getValue() != batch.getInt(DefaultRecordBatch.CRC_OFFSET)) {
                        throw new IllegalStateException(file + ": bad CRC in the batch at byte " + position);
                    }
                    records += batch.getInt(DefaultRecordBatch.RECORDS_COUNT_OFFSET);
                    batch.position(0);
                }
            }
        }
        return records;
    }

    /** The CRC covers the batch from the attributes, which follow it, to its end. */
    private static final int CRC_COVERS_FROM = DefaultRecordBatch.CRC_OFFSET + Integer.BYTES;

    private static void readFully(FileChannel channel, ByteBuffer into, long position) throws IOException {
        while (into.hasRemaining()) {
            if (channel.read(into, position + into.position()) < 0) {
                throw new IOException("segment ends inside a batch at byte " + position);
            }
        }
    }

    /** The {@code .log} files of a partition directory in offset order (files being deleted excluded). */
    static List<Path> segmentFiles(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(p -> p.getFileName().toString().endsWith(".log"))
                    .sorted((a, b) -> Long.compare(baseOffsetOf(a), baseOffsetOf(b)))
                    .toList();
        }
    }

    static long baseOffsetOf(Path segmentFile) {
        String name = segmentFile.getFileName().toString();
        return Long.parseLong(name.substring(0, name.indexOf('.')));
    }
}
