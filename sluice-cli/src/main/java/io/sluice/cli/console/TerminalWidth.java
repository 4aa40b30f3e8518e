package io.sluice.cli.console;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The width in columns of the terminal this process runs in: what {@code stty size} says of {@code /dev/tty} (the
 * width now, after any resize), else the {@code COLUMNS} variable when the shell exports it, else
 * {@link #FALLBACK_COLUMNS}. Stateless; thread-safe.
 */
public final class TerminalWidth {
    /** The width assumed when the terminal's cannot be read: the traditional terminal's. */
    public static final int FALLBACK_COLUMNS = 80;

    private static final long STTY_WAIT_MILLIS = 1_000;

    private TerminalWidth() {}

    /** The terminal's width in columns now. */
    public static int columns() {
        return columns(TerminalWidth::sttyColumns, System.getenv("COLUMNS"));
    }

    /**
     * @param measured   the width the terminal reports, 0 or less when it cannot say
     * @param columnsEnv the {@code COLUMNS} variable, or null
     */
    static int columns(IntSupplier measured, String columnsEnv) {
        int width = measured.getAsInt();
        if (width > 0) {
            return width;
        }
        if (columnsEnv != null) {
            try {
                int fromEnv = Integer.parseInt(columnsEnv.trim());
                if (fromEnv > 0) {
                    return fromEnv;
                }
            } catch (NumberFormatException notANumber) {
                // fall through to the fallback
            }
        }
        return FALLBACK_COLUMNS;
    }

    /** The columns of {@code stty size} ("rows columns") run on {@code /dev/tty}; 0 when that fails. */
    private static int sttyColumns() {
        File tty = new File("/dev/tty");
        if (!tty.exists()) {
            return 0;
        }
        try {
            Process stty = new ProcessBuilder("stty", "size")
                    .redirectInput(tty)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String output;
            try (InputStream in = stty.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
            }
            if (!stty.waitFor(STTY_WAIT_MILLIS, TimeUnit.MILLISECONDS) || stty.exitValue() != 0) {
                stty.destroy();
                return 0;
            }
            return parseSttySize(output);
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** The columns of {@code stty size}'s "rows columns"; 0 when it is not that. */
    static int parseSttySize(String output) {
        String[] fields = output.trim().split("\\s+");
        if (fields.length != 2) {
            return 0;
        }
        try {
            return Math.max(0, Integer.parseInt(fields[1]));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
