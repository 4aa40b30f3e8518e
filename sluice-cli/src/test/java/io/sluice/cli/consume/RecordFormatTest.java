package io.sluice.cli.consume;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class RecordFormatTest {

    @Test
    void shouldPrintValueAndNewlineByDefault() throws IOException {
        assertEquals("v1\n", format(RecordFormat.of(null, null, "\n", false), record("k1", "v1")));
    }

    @Test
    void shouldPrintKeyDelimiterAndValueWithK() throws IOException {
        assertEquals("k1:v1\n", format(RecordFormat.of(null, ":", "\n", false), record("k1", "v1")));
        assertEquals("k1%v1\n", format(RecordFormat.of(null, "%", "\n", false), record("k1", "v1")));
    }

    @Test
    void shouldPrintNullsAsNothingOrAsNullWithZ() throws IOException {
        assertEquals(":\n", format(RecordFormat.of(null, ":", "\n", false), record(null, null)));
        assertEquals("NULL:NULL\n", format(RecordFormat.of(null, ":", "\n", true), record(null, null)));
    }

    @Test
    void shouldUseEndOfRecordDelimiter() throws IOException {
        assertEquals("v1|", format(RecordFormat.of(null, null, "|", false), record("k1", "v1")));
    }

    @Test
    void shouldExpandEveryFormatToken() throws IOException {
        RecordFormat format = RecordFormat.of("%t %p %o %k %s %K %S %T [%h] 100%%\n", null, "\n", false);
        assertEquals("orders 3 17 k1 value 2 5 1700000000123 [h1=a,h2=] 100%\n", format(format, record("k1", "value")));
    }

    @Test
    void shouldPrintNullLengthsAsMinusOne() throws IOException {
        assertEquals("-1 -1", format(RecordFormat.of("%K %S", null, "\n", false), record(null, null)));
    }

    @Test
    void shouldRefuseUnknownOrDanglingTokens() {
        assertThrows(IllegalArgumentException.class, () -> RecordFormat.of("%x", null, "\n", false));
        assertThrows(IllegalArgumentException.class, () -> RecordFormat.of("abc%", null, "\n", false));
    }

    @Test
    void shouldWriteBinaryBytesUnchanged() throws IOException {
        byte[] value = {0, (byte) 0xff, '\n', 'a'};
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(
                "t",
                0,
                0,
                0L,
                TimestampType.CREATE_TIME,
                -1,
                value.length,
                null,
                value,
                new RecordHeaders(),
                Optional.empty());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RecordFormat.of("%s", null, "\n", false).write(record, out);
        assertEquals(
                new String(value, java.nio.charset.StandardCharsets.ISO_8859_1),
                out.toString(java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    private static ConsumerRecord<byte[], byte[]> record(String key, String value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(new RecordHeader("h1", "a".getBytes(UTF_8)));
        headers.add(new RecordHeader("h2", (byte[]) null));
        byte[] keyBytes = key == null ? null : key.getBytes(UTF_8);
        byte[] valueBytes = value == null ? null : value.getBytes(UTF_8);
        return new ConsumerRecord<>(
                "orders",
                3,
                17,
                1700000000123L,
                TimestampType.CREATE_TIME,
                keyBytes == null ? -1 : keyBytes.length,
                valueBytes == null ? -1 : valueBytes.length,
                keyBytes,
                valueBytes,
                headers,
                Optional.empty());
    }

    private static String format(RecordFormat format, ConsumerRecord<byte[], byte[]> record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        format.write(record, out);
        return out.toString(UTF_8);
    }
}
