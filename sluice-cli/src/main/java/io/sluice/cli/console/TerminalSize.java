package io.sluice.cli.console;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The size of the terminal this process runs in: what {@code stty size} says of {@code /dev/tty} (the size now, after
 * any resize), else the {@code COLUMNS} and {@code LINES} variables when the shell exports them, else
 * {@link #FALLBACK_COLUMNS} by {@link #FALLBACK_ROWS}. Immutable; the readers are thread-safe.
 *
 * @param columns the width, at least 1
 * @param rows    the height, at least 1
 */
public record TerminalSize(int columns, int rows) {
    /** The width assumed when the terminal's cannot be read: the traditional terminal's. */
    public static final int FALLBACK_COLUMNS = 80;
    /** The height assumed when the terminal's cannot be read: the traditional terminal's. */
    public static final int FALLBACK_ROWS = 24;

    private static final long STTY_WAIT_MILLIS = 1_000;

    /** The terminal's size now. */
    public static TerminalSize now() {
        return of(TerminalSize::fromStty, System.getenv("COLUMNS"), System.getenv("LINES"));
    }

    /**
     * @param measured   the size the terminal reports, null when it cannot say
     * @param columnsEnv the {@code COLUMNS} variable, or null
     * @param linesEnv   the {@code LINES} variable, or null
     */
    static TerminalSize of(Supplier<TerminalSize> measured, String columnsEnv, String linesEnv) {
        TerminalSize size = measured.get();
        if (size != null) {
            return size;
        }
        return new TerminalSize(positive(columnsEnv, FALLBACK_COLUMNS), positive(linesEnv, FALLBACK_ROWS));
    }

    private static int positive(String value, int fallback) {
        if (value == null) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            return parsed > 0 ? parsed : fallback;
        } catch (NumberFormatException notANumber) {
            return fallback;
        }
    }

    /** What {@code stty size} run on {@code /dev/tty} says; null when that fails. */
    private static TerminalSize fromStty() {
        File tty = new File("/dev/tty");
        if (!tty.exists()) {
            return null;
        }
        try {
            Process stty = new ProcessBuilder("stty", "size")
                    .redirectInput(tty)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String output;
            try (InputStream in = stty.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            }
            if (!stty.waitFor(STTY_WAIT_MILLIS, TimeUnit.MILLISECONDS) || stty.exitValue() != 0) {
                stty.destroy();
                return null;
            }
            return parseSttySize(output);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The size in {@code stty size}'s output, "rows columns"; null when it is not that. */
    static TerminalSize parseSttySize(String output) {
        String[] fields = output.trim().split("\\s+");
        if (fields.length != 2) {
            return null;
        }
        try {
            int rows = Integer.parseInt(fields[0]);
            int columns = Integer.parseInt(fields[1]);
            return rows > 0 && columns > 0 ? new TerminalSize(columns, rows) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
