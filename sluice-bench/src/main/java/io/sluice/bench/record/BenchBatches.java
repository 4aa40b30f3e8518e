package io.sluice.bench.record;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;

/**
 * Produce batches for the record benchmarks, built like Kafka's own record batch benchmarks:
 * null keys, 5 headers with 30-character keys, values of random bytes or compressible JSON text.
 * The {@code incompressible} payload is random values under 5 headers whose keys and values are
 * random bytes too, so that nothing in the batch repeats and every codec stores it verbatim.
 *
 * <p>Stateless; thread-safe.
 */
final class BenchBatches {

    static final int HEADER_COUNT = 5;
    static final int HEADER_KEY_LENGTH = 30;

    private BenchBatches() {}

    static ByteBuffer build(String codec, int records, int valueSize, String payload, long timestamp, long seed) {
        Random random = new Random(seed);
        Header[] headers = new Header[HEADER_COUNT];
        for (int h = 0; h < HEADER_COUNT; h++) {
            String key = ("header-key-" + h + "-" + "x".repeat(HEADER_KEY_LENGTH)).substring(0, HEADER_KEY_LENGTH);
            headers[h] = new RecordHeader(key, ("v" + h).getBytes(StandardCharsets.UTF_8));
        }
        MemoryRecordsBuilder builder = MemoryRecords.builder(
                ByteBuffer.allocate(1024),
                RecordBatch.MAGIC_VALUE_V2,
                Compression.of(CompressionType.forName(codec)).build(),
                TimestampType.CREATE_TIME,
                0L,
                RecordBatch.NO_TIMESTAMP,
                RecordBatch.NO_PRODUCER_ID,
                RecordBatch.NO_PRODUCER_EPOCH,
                RecordBatch.NO_SEQUENCE,
                false,
                RecordBatch.NO_PARTITION_LEADER_EPOCH);
        for (int i = 0; i < records; i++) {
            byte[] value = value(random, valueSize, payload, i);
            builder.append(
                    timestamp + i, null, value, "incompressible".equals(payload) ? randomHeaders(random) : headers);
        }
        MemoryRecords built = builder.build();
        ByteBuffer batch = ByteBuffer.allocateDirect(built.sizeInBytes());
        batch.put(built.buffer().duplicate()).flip();
        return batch;
    }

    private static Header[] randomHeaders(Random random) {
        Header[] headers = new Header[HEADER_COUNT];
        for (int h = 0; h < HEADER_COUNT; h++) {
            byte[] key = new byte[HEADER_KEY_LENGTH];
            random.nextBytes(key);
            byte[] value = new byte[2];
            random.nextBytes(value);
            headers[h] = new RecordHeader(new String(key, StandardCharsets.ISO_8859_1), value);
        }
        return headers;
    }

    private static byte[] value(Random random, int size, String payload, int index) {
        byte[] bytes = new byte[size];
        if (!"json".equals(payload)) {
            random.nextBytes(bytes);
            return bytes;
        }
        StringBuilder json = new StringBuilder(size + 64);
        int n = index;
        while (json.length() < size) {
            json.append("{\"id\":")
                    .append(n)
                    .append(",\"user\":\"user-")
                    .append(n % 97)
                    .append("\",\"event\":\"page_view\",\"path\":\"/products/")
                    .append(n % 1013)
                    .append("\",\"ok\":true},");
            n += 7;
        }
        byte[] text = json.toString().getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(text, 0, bytes, 0, size);
        return bytes;
    }
}
