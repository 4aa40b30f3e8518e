package io.sluice.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class EscapesTest {

    @Test
    void shouldTurnKcatEscapesIntoCharacters() {
        assertEquals("a\tb\nc\rd\0e\\f", Escapes.unescape("a\\tb\\nc\\rd\\0e\\\\f"));
    }

    @Test
    void shouldKeepUnknownEscapesAndTrailingBackslash() {
        assertEquals("\\x:\\", Escapes.unescape("\\x:\\"));
        assertEquals("::", Escapes.unescape("::"));
    }
}
