package io.sluice.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.ship.SegmentRangeChecksum;
import io.sluice.record.batch.RecordBatchDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.zip.CRC32C;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link SegmentRangeChecksum}: the checksum of any range of a segment file, in any sequence of ranges, equals the
 * CRC-32C of its bytes; whole batches come from their headers (few bytes read); damage is never vouched for.
 */
class SegmentRangeChecksumTest {
    static final int BATCHES = 40;

    /** {@code BATCHES} real batches of varied sizes, offsets rising. */
    static ByteBuffer segment(long seed) {
        Random random = new Random(seed);
        ByteBuffer[] batches = new ByteBuffer[BATCHES];
        long offset = 0;
        for (int i = 0; i < BATCHES; i++) {
            int records = 1 + random.nextInt(5);
            ByteBuffer b = TestBatches.batch(1_000L + i, records, 1 + random.nextInt(i % 2 == 0 ? 700 : 3000));
            b.putLong(RecordBatchDescriptor.BASE_OFFSET_OFFSET, offset);
            offset += records;
            batches[i] = b;
        }
        return TestBatches.concat(batches);
    }

    /** The bytes as a file, open for reading; the name is gone already (jqwik tries share no per-try directory). */
    private static FileChannel file(ByteBuffer bytes) throws IOException {
        Path path = Files.createTempFile("segment", ".log");
        try {
            Files.write(path, toArray(bytes));
            return FileChannel.open(path, StandardOpenOption.READ);
        } finally {
            Files.delete(path);
        }
    }

    private static byte[] toArray(ByteBuffer bytes) {
        byte[] array = new byte[bytes.remaining()];
        bytes.duplicate().get(array);
        return array;
    }

    static int crcOf(ByteBuffer bytes, int from, int to) {
        CRC32C crc = new CRC32C();
        crc.update(bytes.duplicate().position(from).limit(to));
        return (int) crc.getValue();
    }

    @Property(tries = 150)
    void shouldEqualTheBytesChecksumForConsecutiveRangesOfAnySize(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 9000) int maxChunk) throws IOException {
        ByteBuffer bytes = segment(seed);
        int size = bytes.remaining();
        Random random = new Random(seed ^ 0x5DEECE66DL);
        SegmentRangeChecksum checksum = new SegmentRangeChecksum();
        try (FileChannel file = file(bytes)) {
            int at = 0;
            while (at < size) {
                int length = Math.min(size - at, 1 + random.nextInt(maxChunk));
                assertEquals(
                        crcOf(bytes, at, at + length),
                        checksum.of(file, at, length, size),
                        "range [" + at + ", " + (at + length) + ")");
                at += length;
            }
        }
    }

    @Property(tries = 150)
    void shouldEqualTheBytesChecksumForRangesInAnyOrder(@ForAll long seed) throws IOException {
        ByteBuffer bytes = segment(seed);
        int size = bytes.remaining();
        Random random = new Random(seed);
        SegmentRangeChecksum checksum = new SegmentRangeChecksum();
        try (FileChannel file = file(bytes)) {
            for (int i = 0; i < 20; i++) {
                int from = random.nextInt(size);
                int length = random.nextInt(size - from + 1);
                assertEquals(crcOf(bytes, from, from + length), checksum.of(file, from, length, size));
            }
        }
    }

    @Test
    void shouldReadOnlyTheSmallBatchesOfAWholeFile() throws IOException {
        ByteBuffer bytes = segment(7);
        int size = bytes.remaining();
        long large = 0;
        long smallBytes = 0;
        for (int at = 0; at < size; ) {
            int batchSize =
                    bytes.getInt(at + RecordBatchDescriptor.BATCH_LENGTH_OFFSET) + RecordBatchDescriptor.LOG_OVERHEAD;
            if (batchSize >= SegmentRangeChecksum.COMBINE_MIN_BYTES) {
                large++;
            } else {
                smallBytes += batchSize;
            }
            at += batchSize;
        }
        assertTrue(large > 0 && smallBytes > 0, "the segment mixes small and large batches");
        SegmentRangeChecksum checksum = new SegmentRangeChecksum();
        try (FileChannel file = file(bytes)) {
            assertEquals(crcOf(bytes, 0, size), checksum.of(file, 0, size, size));
        }
        assertEquals(large, checksum.batchesCombined());
        assertEquals(smallBytes, checksum.bytesChecksummed());
    }

    @Property(tries = 100)
    void shouldNotVouchForALargeBatchWhoseRecordsAreDamaged(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 1 << 20) int where) throws IOException {
        ByteBuffer bytes = segment(seed);
        int size = bytes.remaining();
        int batchStart = 0;
        int batchSize = bytes.getInt(RecordBatchDescriptor.BATCH_LENGTH_OFFSET) + RecordBatchDescriptor.LOG_OVERHEAD;
        int target = where % size;
        while (batchStart + batchSize <= target) {
            batchStart += batchSize;
            batchSize = bytes.getInt(batchStart + RecordBatchDescriptor.BATCH_LENGTH_OFFSET)
                    + RecordBatchDescriptor.LOG_OVERHEAD;
        }
        int damaged = Math.max(target, batchStart + RecordBatchDescriptor.RECORD_BATCH_OVERHEAD);
        if (batchSize < SegmentRangeChecksum.COMBINE_MIN_BYTES || damaged >= batchStart + batchSize) {
            return; // a small batch is checksummed by its bytes: the receiver's batch check finds its damage
        }
        bytes.put(damaged, (byte) (bytes.get(damaged) ^ 0x10));
        try (FileChannel file = file(bytes)) {
            int vouched = new SegmentRangeChecksum().of(file, 0, size, size);
            assertNotEquals(crcOf(bytes, 0, size), vouched, "a damaged batch at " + batchStart);
        }
    }

    @Test
    void shouldFallBackToTheBytesAfterAnInsaneHeader() throws IOException {
        ByteBuffer bytes = segment(3);
        int size = bytes.remaining();
        int second = bytes.getInt(RecordBatchDescriptor.BATCH_LENGTH_OFFSET) + RecordBatchDescriptor.LOG_OVERHEAD;
        bytes.putInt(second + RecordBatchDescriptor.BATCH_LENGTH_OFFSET, Integer.MAX_VALUE); // forged length
        SegmentRangeChecksum checksum = new SegmentRangeChecksum();
        try (FileChannel file = file(bytes)) {
            int half = size / 2;
            assertEquals(crcOf(bytes, 0, half), checksum.of(file, 0, half, size));
            assertEquals(crcOf(bytes, half, size), checksum.of(file, half, size - half, size));
        }
        assertTrue(checksum.bytesChecksummed() >= size - second, "everything after the forged length is read");
    }

    @Test
    void shouldFailWhenTheFileEndsInsideTheRange() throws IOException {
        ByteBuffer bytes = segment(5);
        int size = bytes.remaining();
        try (FileChannel file = file(bytes)) {
            SegmentRangeChecksum checksum = new SegmentRangeChecksum();
            assertThrows(IOException.class, () -> checksum.of(file, 0, size + 100, size + 100));
            assertThrows(IOException.class, () -> checksum.of(file, size - 10, 20, size));
            assertThrows(IOException.class, () -> checksum.of(file, -1, 20, size));
            assertThrows(IOException.class, () -> checksum.ofBytes(file, size - 10, 20));
        }
    }

    @Test
    void shouldChecksumAnyFileByItsBytes() throws IOException {
        byte[] garbage = new byte[100_000];
        new Random(11).nextBytes(garbage);
        ByteBuffer bytes = ByteBuffer.wrap(garbage);
        try (FileChannel file = file(bytes)) {
            assertEquals(crcOf(bytes, 17, 90_017), new SegmentRangeChecksum().ofBytes(file, 17, 90_000));
        }
    }
}
