package io.sluice.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Where the terminal's width comes from: the terminal itself, then COLUMNS, then 80. */
class TerminalWidthTest {
    @Test
    void shouldPreferTheMeasuredWidthThenColumnsThenEighty() {
        assertEquals(132, TerminalWidth.columns(() -> 132, "100"));
        assertEquals(100, TerminalWidth.columns(() -> 0, " 100 "));
        assertEquals(80, TerminalWidth.columns(() -> 0, null));
        assertEquals(80, TerminalWidth.columns(() -> 0, "wide"));
        assertEquals(80, TerminalWidth.columns(() -> 0, "-5"));
    }

    @Test
    void shouldReadTheColumnsOfSttySize() {
        assertEquals(120, TerminalWidth.parseSttySize("40 120\n"));
        assertEquals(0, TerminalWidth.parseSttySize(""));
        assertEquals(0, TerminalWidth.parseSttySize("stty: 'standard input': Inappropriate ioctl for device"));
    }
}
