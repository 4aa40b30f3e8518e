package io.sluice.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Where the terminal's size comes from: the terminal itself, then COLUMNS and LINES, then 80 by 24. */
class TerminalSizeTest {
    @Test
    void shouldPreferTheMeasuredSizeThenTheVariablesThenEightyByTwentyFour() {
        assertEquals(new TerminalSize(132, 50), TerminalSize.of(() -> new TerminalSize(132, 50), "100", "30"));
        assertEquals(new TerminalSize(100, 30), TerminalSize.of(() -> null, " 100 ", "30"));
        assertEquals(new TerminalSize(80, 24), TerminalSize.of(() -> null, null, null));
        assertEquals(new TerminalSize(80, 24), TerminalSize.of(() -> null, "wide", "-5"));
    }

    @Test
    void shouldReadRowsAndColumnsOfSttySize() {
        assertEquals(new TerminalSize(120, 40), TerminalSize.parseSttySize("40 120\n"));
        assertNull(TerminalSize.parseSttySize(""));
        assertNull(TerminalSize.parseSttySize("0 0"));
        assertNull(TerminalSize.parseSttySize("stty: 'standard input': Inappropriate ioctl for device"));
    }
}
