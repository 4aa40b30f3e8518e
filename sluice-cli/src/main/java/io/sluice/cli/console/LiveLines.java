package io.sluice.cli.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A block of lines drawn on a terminal and redrawn in place: each frame moves the cursor up over the rows the previous
 * frame took, erases to the end of the screen and writes the new lines. The cursor can only move up over rows that
 * are on the screen, and it moves over rows, not lines, so a frame must fit on the screen one row a line:
 * <ul>
 *   <li>each line is cut to one column less than the width (the last column left free: some terminals wrap as soon as
 *       it is written);</li>
 *   <li>a frame with more lines than the screen has rows, less the cursor's, shows the first ones and ends with
 *       {@code ... and N more};</li>
 *   <li>the rows a previous line takes are counted at the width of the new frame, so a terminal that narrowed and
 *       rewrapped them is redrawn over too.</li>
 * </ul>
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

    /** The text that replaces the previous frame by {@code lines} on a terminal of {@code size}. */
    public String frame(List<String> lines, TerminalSize size) {
        int screen = Math.max(2, size.columns());
        int width = screen - 1;
        StringBuilder out = new StringBuilder();
        int rows = 0;
        for (int length : drawnLengths) {
            rows += Math.max(1, (length + screen - 1) / screen);
        }
        if (rows > 0) {
            out.append(String.format(Locale.ROOT, CURSOR_UP, rows)).append(ERASE_BELOW);
        }
        List<String> shown = fitted(lines, Math.max(1, size.rows() - 1));
        List<Integer> lengths = new ArrayList<>(shown.size());
        for (String line : shown) {
            String cut = line.length() > width ? line.substring(0, width) : line;
            out.append(cut).append(lineSeparator);
            lengths.add(cut.length());
        }
        drawnLengths = List.copyOf(lengths);
        return out.toString();
    }

    /** {@code lines} when they are at most {@code most}, else the first {@code most - 1} and how many are left out. */
    private static List<String> fitted(List<String> lines, int most) {
        if (lines.size() <= most) {
            return lines;
        }
        List<String> shown = new ArrayList<>(lines.subList(0, most - 1));
        shown.add("... and " + (lines.size() - shown.size()) + " more");
        return shown;
    }
}
