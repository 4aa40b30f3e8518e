package io.sluice.cli.produce;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class LineRecordParserTest {

    @Test
    void shouldSplitKeyAtFirstDelimiter() {
        LineRecord record = parse(new LineRecordParser(":".getBytes(UTF_8), null, false), "k1:v:1");
        assertArrayEquals("k1".getBytes(UTF_8), record.key());
        assertArrayEquals("v:1".getBytes(UTF_8), record.value());
    }

    @Test
    void shouldUseMultiByteDelimiter() {
        LineRecord record = parse(new LineRecordParser("::".getBytes(UTF_8), null, false), "a:b::c");
        assertArrayEquals("a:b".getBytes(UTF_8), record.key());
        assertArrayEquals("c".getBytes(UTF_8), record.value());
    }

    @Test
    void shouldSendWholeLineWithNullKeyWhenDelimiterIsMissing() {
        LineRecord record = parse(new LineRecordParser(":".getBytes(UTF_8), null, false), "no delimiter");
        assertNull(record.key());
        assertArrayEquals("no delimiter".getBytes(UTF_8), record.value());
    }

    @Test
    void shouldKeepEmptyPartsUnlessEmptyAsNull() {
        LineRecord kept = parse(new LineRecordParser(":".getBytes(UTF_8), null, false), ":");
        assertArrayEquals(new byte[0], kept.key());
        assertArrayEquals(new byte[0], kept.value());
        LineRecord nulled = parse(new LineRecordParser(":".getBytes(UTF_8), null, true), ":");
        assertNull(nulled.key());
        assertNull(nulled.value());
    }

    @Test
    void shouldUseFixedKeyOrNullWithoutDelimiter() {
        LineRecord fixed = parse(new LineRecordParser(null, "K".getBytes(UTF_8), false), "a:b");
        assertArrayEquals("K".getBytes(UTF_8), fixed.key());
        assertArrayEquals("a:b".getBytes(UTF_8), fixed.value());
        assertNull(parse(new LineRecordParser(null, null, false), "v").key());
    }

    @Test
    void shouldOnlyReadTheGivenLength() {
        byte[] buffer = "key:value-and-stale-bytes".getBytes(UTF_8);
        LineRecord record = new LineRecordParser(":".getBytes(UTF_8), null, false).parse(buffer, "key:value".length());
        assertArrayEquals("value".getBytes(UTF_8), record.value());
    }

    @Test
    void shouldRefuseEmptyDelimiter() {
        assertThrows(IllegalArgumentException.class, () -> new LineRecordParser(new byte[0], null, false));
    }

    @Property
    void shouldRebuildTheLineFromKeyDelimiterAndValue(@ForAll byte[] line) {
        byte[] delimiter = {'\t'};
        LineRecord record = new LineRecordParser(delimiter, null, false).parse(line, line.length);
        byte[] rebuilt = record.key() == null ? record.value() : concat(record.key(), delimiter, record.value());
        assertArrayEquals(line, rebuilt);
        if (record.key() != null) {
            assertEquals(-1, LineRecordParser.indexOf(record.key(), record.key().length, delimiter));
        }
    }

    private static LineRecord parse(LineRecordParser parser, String line) {
        byte[] bytes = line.getBytes(UTF_8);
        return parser.parse(bytes, bytes.length);
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] out = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, out, at, part.length);
            at += part.length;
        }
        return out;
    }
}
