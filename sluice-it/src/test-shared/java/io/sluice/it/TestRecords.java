package io.sluice.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/**
 * The deterministic record number {@code i} of a test run (key, ~100-byte value, two headers, create time), so a
 * consumer can check every field of what it reads without keeping what was sent.
 *
 * <p>Thread-safe; stateless.
 */
final class TestRecords {

    static final int VALUE_BYTES = 100;
    /**
     * Create time of record 0: an hour before this test JVM started, so the record timestamps of a run (base + index
     * in ms) are recent and in the past. Old timestamps would make a broker roll a segment per batch and expire data
     * by time retention, as Kafka does.
     */
    static final long BASE_TIMESTAMP = System.currentTimeMillis() - 3_600_000L;

    static final String INDEX_HEADER = "index";
    static final String RUN_HEADER = "run";
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    private TestRecords() {}

    static byte[] key(String run, long i) {
        return (run + "-" + i).getBytes(StandardCharsets.UTF_8);
    }

    /** 100 bytes: the index, then letters that vary with it (compressible, but not trivially). */
    static byte[] value(long i) {
        byte[] value = new byte[VALUE_BYTES];
        byte[] prefix = ("v" + i + ":").getBytes(StandardCharsets.UTF_8);
        System.arraycopy(prefix, 0, value, 0, prefix.length);
        long state = i * 0x9E3779B97F4A7C15L + 1;
        for (int b = prefix.length; b < VALUE_BYTES; b++) {
            state ^= state << 13;
            state ^= state >>> 7;
            state ^= state << 17;
            value[b] = (byte) ALPHABET.charAt((int) ((state >>> 1) % (ALPHABET.length() / 4)));
        }
        return value;
    }

    static long timestamp(long i) {
        return BASE_TIMESTAMP + i;
    }

    static ProducerRecord<byte[], byte[]> record(String topic, int partition, String run, long i) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(INDEX_HEADER, ByteBuffer.allocate(Long.BYTES).putLong(0, i).array());
        headers.add(RUN_HEADER, run.getBytes(StandardCharsets.UTF_8));
        return new ProducerRecord<>(topic, partition, timestamp(i), key(run, i), value(i), headers);
    }

    /** The record index carried in the index header. */
    static long indexOf(ConsumerRecord<byte[], byte[]> record) {
        Header header = record.headers().lastHeader(INDEX_HEADER);
        assertNotNull(
                header,
                () -> "no '" + INDEX_HEADER + "' header at " + record.topic() + "-" + record.partition() + "@"
                        + record.offset());
        return ByteBuffer.wrap(header.value()).getLong();
    }

    /** Asserts that every field of {@code record} is what {@link #record} made for index {@code i}. */
    static void assertIntact(ConsumerRecord<byte[], byte[]> record, String run, long i) {
        String where = record.topic() + "-" + record.partition() + "@" + record.offset() + " (record " + i + ")";
        assertArrayEquals(key(run, i), record.key(), () -> "key at " + where);
        assertArrayEquals(value(i), record.value(), () -> "value at " + where);
        assertEquals(TimestampType.CREATE_TIME, record.timestampType(), () -> "timestamp type at " + where);
        assertEquals(timestamp(i), record.timestamp(), () -> "timestamp at " + where);
        assertEquals(i, indexOf(record), () -> "index header at " + where);
        Header runHeader = record.headers().lastHeader(RUN_HEADER);
        assertNotNull(runHeader, () -> "run header at " + where);
        assertEquals(run, new String(runHeader.value(), StandardCharsets.UTF_8), () -> "run header at " + where);
        assertEquals(2, record.headers().toArray().length, () -> "header count at " + where);
    }
}
