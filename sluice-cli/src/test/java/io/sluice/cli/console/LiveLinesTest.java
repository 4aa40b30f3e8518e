package io.sluice.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Frames redrawn in place on a terminal of a fixed width. */
class LiveLinesTest {
    private static final String UP = "\u001b[";
    private static final String ERASE_BELOW = "A\r\u001b[J";

    /**
     * On a 20-column terminal a 30-character line wrapped onto a second row, and the next frame moved up one row per
     * line: the first row of the old line stayed on screen above the new frame, once per reading. Each line is now
     * cut to 19 columns, one row each, and the next frame moves up exactly over them.
     */
    @Test
    void shouldCutLinesToTheTerminalWidthSoEachTakesOneRow() {
        LiveLines screen = new LiveLines("\n");
        String wide = "orders-3 [####----] 50% 1.0/2.0 MB";
        assertEquals("orders-3 [####----]\n" + "short\n", screen.frame(List.of(wide, "short"), 20));
        assertEquals(UP + 2 + ERASE_BELOW + "orders-3 [####----]\n", screen.frame(List.of(wide), 20));
        assertEquals(UP + 1 + ERASE_BELOW + "done\n", screen.frame(List.of("done"), 20));
    }

    @Test
    void shouldWriteTheFirstFrameWithoutMovingTheCursor() {
        assertEquals("a\nb\n", new LiveLines("\n").frame(List.of("a", "b"), 80));
        assertEquals("", new LiveLines("\n").frame(List.of(), 80));
    }

    /** The terminal narrowed from 80 to 40 columns and rewrapped a 79-column line onto two rows. */
    @Test
    void shouldCountTheRowsOfThePreviousFrameAtTheNewWidth() {
        LiveLines screen = new LiveLines("\n");
        screen.frame(List.of("x".repeat(79), "y"), 80);
        assertEquals(UP + 3 + ERASE_BELOW + "z\n", screen.frame(List.of("z"), 40));
    }
}
