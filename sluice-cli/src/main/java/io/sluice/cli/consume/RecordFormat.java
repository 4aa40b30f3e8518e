package io.sluice.cli.consume;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Writes consumed records as kcat does: {@code -f} format tokens (%t topic, %p partition,
 * %o offset, %k key, %s value, %K key length, %S value length, %T timestamp, %h headers as
 * NAME=VALUE joined by ',', %% percent), or by default the value (the key, the -K delimiter and
 * the value with -K) followed by the end-of-record delimiter. Null keys and values print as
 * nothing, or as NULL with -Z. Key and value bytes are written as they are. Immutable; thread-safe.
 */
public final class RecordFormat {
    private static final byte[] NULL_TEXT = "NULL".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EMPTY = new byte[0];
    private static final int NULL_LENGTH = -1;

    private final List<Object> parts;
    private final boolean printNull;

    private RecordFormat(List<Object> parts, boolean printNull) {
        this.parts = List.copyOf(parts);
        this.printNull = printNull;
    }

    /**
     * @param format       a kcat -f format (escapes already applied), or null for the default
     * @param keyDelimiter the -K delimiter (escapes already applied), or null to print values only
     * @param endOfRecord  written after each record by the default format (kcat -D; "\n")
     * @param printNull    print null keys/values as NULL (kcat -Z)
     * @throws IllegalArgumentException on an unknown %-token
     */
    public static RecordFormat of(String format, String keyDelimiter, String endOfRecord, boolean printNull) {
        if (format == null) {
            format = (keyDelimiter == null ? "" : "%k" + keyDelimiter.replace("%", "%%")) + "%s"
                    + endOfRecord.replace("%", "%%");
        }
        List<Object> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%') {
                literal.append(c);
                continue;
            }
            if (i + 1 == format.length()) {
                throw new IllegalArgumentException("-f format ends with a lone '%': '" + format + "'");
            }
            char token = format.charAt(++i);
            if (token == '%') {
                literal.append('%');
                continue;
            }
            if ("tpokKsSTh".indexOf(token) < 0) {
                throw new IllegalArgumentException("-f format has unknown token %" + token + ": '" + format + "'");
            }
            if (literal.length() > 0) {
                parts.add(literal.toString().getBytes(StandardCharsets.UTF_8));
                literal.setLength(0);
            }
            parts.add(token);
        }
        if (literal.length() > 0) {
            parts.add(literal.toString().getBytes(StandardCharsets.UTF_8));
        }
        return new RecordFormat(parts, printNull);
    }

    public void write(ConsumerRecord<byte[], byte[]> record, OutputStream out) throws IOException {
        for (Object part : parts) {
            if (part instanceof byte[] literal) {
                out.write(literal);
                continue;
            }
            switch ((Character) part) {
                case 't' -> ascii(out, record.topic());
                case 'p' -> ascii(out, String.valueOf(record.partition()));
                case 'o' -> ascii(out, String.valueOf(record.offset()));
                case 'k' -> out.write(bytesOrNull(record.key()));
                case 's' -> out.write(bytesOrNull(record.value()));
                case 'K' -> ascii(out, String.valueOf(record.key() == null ? NULL_LENGTH : record.key().length));
                case 'S' -> ascii(out, String.valueOf(record.value() == null ? NULL_LENGTH : record.value().length));
                case 'T' -> ascii(out, String.valueOf(record.timestamp()));
                case 'h' -> writeHeaders(record, out);
                default -> throw new IllegalStateException("unhandled token " + part);
            }
        }
    }

    private void writeHeaders(ConsumerRecord<byte[], byte[]> record, OutputStream out) throws IOException {
        boolean first = true;
        for (Header header : record.headers()) {
            if (!first) {
                out.write(',');
            }
            first = false;
            out.write(header.key().getBytes(StandardCharsets.UTF_8));
            out.write('=');
            out.write(bytesOrNull(header.value()));
        }
    }

    private byte[] bytesOrNull(byte[] bytes) {
        if (bytes != null) {
            return bytes;
        }
        return printNull ? NULL_TEXT : EMPTY;
    }

    private static void ascii(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.US_ASCII));
    }
}
