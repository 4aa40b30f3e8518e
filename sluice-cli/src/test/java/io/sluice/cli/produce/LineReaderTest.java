package io.sluice.cli.produce;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class LineReaderTest {

    @Test
    void shouldSplitLinesKeepingEmptyOnesAndTheUnterminatedLast() throws IOException {
        assertEquals(List.of("a", "", "b c", "last"), readAll("a\n\nb c\nlast", 100));
        assertEquals(List.of("a"), readAll("a\n", 100));
        assertEquals(List.of(), readAll("", 100));
        assertEquals(List.of("x\r"), readAll("x\r\n", 100));
    }

    @Test
    void shouldGrowPastInitialCapacity() throws IOException {
        String longLine = "y".repeat(10_000);
        assertEquals(List.of(longLine, "z"), readAll(longLine + "\nz\n", 20_000));
    }

    @Test
    void shouldRefuseLineOverLimitNamingItsNumber() {
        IOException error = assertThrows(IOException.class, () -> readAll("ok\n" + "x".repeat(11) + "\n", 10));
        assertTrue(error.getMessage().contains("line 2"), error.getMessage());
        assertTrue(error.getMessage().contains("10 bytes"), error.getMessage());
    }

    @Test
    void shouldNotAllocateBeyondLimitOnEndlessInput() {
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return 'x';
            }
        };
        assertThrows(IOException.class, () -> new LineReader(endless, 1 << 20).next());
    }

    @Test
    void shouldCountLines() throws IOException {
        LineReader reader = new LineReader(new ByteArrayInputStream("a\nb".getBytes(UTF_8)), 10);
        assertTrue(reader.next());
        assertEquals(1, reader.lineNumber());
        assertTrue(reader.next());
        assertEquals(2, reader.lineNumber());
        assertFalse(reader.next());
    }

    @Property
    void shouldRoundTripLinesJoinedByNewline(
            @ForAll List<@net.jqwik.api.constraints.CharRange(from = 'a', to = 'z') String> lines) throws IOException {
        String input = String.join("\n", lines);
        List<String> read = readAll(input, 1 << 16);
        List<String> expected = new ArrayList<>(Arrays.asList(input.split("\n", -1)));
        // A final '\n' terminates the last line rather than starting an empty one.
        expected.remove(expected.size() - 1);
        if (!input.endsWith("\n") && !input.isEmpty()) {
            expected.add(input.substring(input.lastIndexOf('\n') + 1));
        }
        assertEquals(expected, read);
    }

    private static List<String> readAll(String text, int maxLineBytes) throws IOException {
        LineReader reader = new LineReader(new ByteArrayInputStream(text.getBytes(UTF_8)), maxLineBytes);
        List<String> lines = new ArrayList<>();
        while (reader.next()) {
            lines.add(new String(reader.bytes(), 0, reader.length(), UTF_8));
        }
        return lines;
    }
}
