package io.sluice.cli.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A block of lines drawn on a terminal and redrawn in place: each frame moves the cursor up over the rows the previous
 * frame took, erases to the end of the screen and writes the new lines. A line wider than the terminal would wrap onto
 * a second row that the next frame does not move up over, so each line is cut to one column less than the width (the
 * last column left free: some terminals wrap as soon as it is written). The rows a previous line takes are counted at
 * the width of the new frame, so a terminal that narrowed and rewrapped them is redrawn over too.
 *
 * <p>Not thread-safe; one per screen, driven by one thread.
 */
public final class LiveLines {
    /** ANSI: cursor up N rows. */
    private static final String CURSOR_UP = "\u001b[%dA";
    /** Carriage return, then ANSI: erase from the cursor to the end of the screen. */
    private static final String ERASE_BELOW = "\r\u001b[J";

    private final String lineSeparator;
    private List<Integer> drawnLengths = List.of();

    public LiveLines(String lineSeparator) {
        this.lineSeparator = lineSeparator;
    }

    /** The text that replaces the previous frame by {@code lines} on a terminal {@code columns} wide. */
    public String frame(List<String> lines, int columns) {
        int screen = Math.max(2, columns);
        int width = screen - 1;
        StringBuilder out = new StringBuilder();
        int rows = 0;
        for (int length : drawnLengths) {
            rows += Math.max(1, (length + screen - 1) / screen);
        }
        if (rows > 0) {
            out.append(String.format(Locale.ROOT, CURSOR_UP, rows)).append(ERASE_BELOW);
        }
        List<Integer> lengths = new ArrayList<>(lines.size());
        for (String line : lines) {
            String shown = line.length() > width ? line.substring(0, width) : line;
            out.append(shown).append(lineSeparator);
            lengths.add(shown.length());
        }
        drawnLengths = List.copyOf(lengths);
        return out.toString();
    }
}
