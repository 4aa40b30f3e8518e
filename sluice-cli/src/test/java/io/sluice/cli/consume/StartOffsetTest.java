package io.sluice.cli.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StartOffsetTest {

    @Test
    void shouldParseKcatForms() {
        assertEquals(new StartOffset(StartOffset.Kind.BEGINNING, 0), StartOffset.parse("beginning"));
        assertEquals(new StartOffset(StartOffset.Kind.END, 0), StartOffset.parse("end"));
        assertEquals(new StartOffset(StartOffset.Kind.ABSOLUTE, 42), StartOffset.parse("42"));
        assertEquals(new StartOffset(StartOffset.Kind.FROM_END, 10), StartOffset.parse("-10"));
        assertEquals(new StartOffset(StartOffset.Kind.TIMESTAMP, 1700000000000L), StartOffset.parse("s@1700000000000"));
    }

    @Test
    void shouldResolveAgainstLogStartAndEnd() {
        assertEquals(5, StartOffset.parse("beginning").resolve(5, 100));
        assertEquals(100, StartOffset.parse("end").resolve(5, 100));
        assertEquals(42, StartOffset.parse("42").resolve(5, 100));
        assertEquals(90, StartOffset.parse("-10").resolve(5, 100));
        assertEquals(5, StartOffset.parse("-1000").resolve(5, 100));
    }

    @Test
    void shouldRefuseGarbageNamingTheOption() {
        for (String bad : List.of("", "start", "--1", "-", "s@", "s@x", "1.5", "+3", "99999999999999999999")) {
            IllegalArgumentException error =
                    assertThrows(IllegalArgumentException.class, () -> StartOffset.parse(bad), bad);
            assertTrue(error.getMessage().startsWith("-o expects"), error.getMessage());
        }
    }
}
