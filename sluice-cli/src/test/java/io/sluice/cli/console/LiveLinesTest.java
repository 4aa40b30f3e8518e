package io.sluice.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Frames redrawn in place on a terminal of a fixed size. */
class LiveLinesTest {
    private static final String UP = "\u001b[";
    private static final String ERASE_BELOW = "A\r\u001b[J";
    private static final TerminalSize WIDE_20 = new TerminalSize(20, 24);

    /**
     * On a 20-column terminal a 30-character line wrapped onto a second row, and the next frame moved up one row per
     * line: the first row of the old line stayed on screen above the new frame, once per reading. Each line is now
     * cut to 19 columns, one row each, and the next frame moves up exactly over them.
     */
    @Test
    void shouldCutLinesToTheTerminalWidthSoEachTakesOneRow() {
        LiveLines screen = new LiveLines("\n");
        String wide = "orders-3 [####----] 50% 1.0/2.0 MB";
        assertEquals("orders-3 [####----]\n" + "short\n", screen.frame(List.of(wide, "short"), WIDE_20));
        assertEquals(UP + 2 + ERASE_BELOW + "orders-3 [####----]\n", screen.frame(List.of(wide), WIDE_20));
        assertEquals(UP + 1 + ERASE_BELOW + "done\n", screen.frame(List.of("done"), WIDE_20));
    }

    @Test
    void shouldWriteTheFirstFrameWithoutMovingTheCursor() {
        assertEquals("a\nb\n", new LiveLines("\n").frame(List.of("a", "b"), new TerminalSize(80, 24)));
        assertEquals("", new LiveLines("\n").frame(List.of(), new TerminalSize(80, 24)));
    }

    /** The terminal narrowed from 80 to 40 columns and rewrapped a 79-column line onto two rows. */
    @Test
    void shouldCountTheRowsOfThePreviousFrameAtTheNewWidth() {
        LiveLines screen = new LiveLines("\n");
        screen.frame(List.of("x".repeat(79), "y"), new TerminalSize(80, 24));
        assertEquals(UP + 3 + ERASE_BELOW + "z\n", screen.frame(List.of("z"), new TerminalSize(40, 24)));
    }

    /**
     * Six moves on a five-row terminal: the cursor cannot move up over rows that scrolled off the screen, so a frame of
     * six lines left its first two behind on every reading. Four lines fit with the cursor's row: three moves and a
     * count of the others.
     */
    @Test
    void shouldShowOnlyTheLinesThatFitTheScreen() {
        LiveLines screen = new LiveLines("\n");
        List<String> six = List.of("m0", "m1", "m2", "m3", "m4", "m5");
        TerminalSize small = new TerminalSize(80, 5);
        assertEquals("m0\nm1\nm2\n... and 3 more\n", screen.frame(six, small));
        assertEquals(UP + 4 + ERASE_BELOW + "m0\nm1\nm2\nm3\n", screen.frame(six.subList(0, 4), small));
    }
}
