package io.sluice.cli.partition;

import java.util.Locale;
import java.util.Map;

/**
 * Renders moves as lines: a progress bar, bytes shipped of total, rate and ETA (from the bytes shipped since the
 * previous reading), phase and replica sets. Stateless; thread-safe.
 */
final class MoveProgressFormat {
    private static final int BAR_WIDTH = 24;
    private static final double MEGABYTE = 1024.0 * 1024.0;

    private MoveProgressFormat() {}

    /**
     * @param previousShipped bytes shipped per move at the previous reading, {@code elapsedSeconds} ago (empty for
     *                        the first reading: no rate yet)
     */
    static String line(MoveProgress m, Map<String, Long> previousShipped, double elapsedSeconds) {
        Long before = previousShipped.get(m.name());
        String rate = "";
        String eta = "";
        if (before != null && elapsedSeconds > 0) {
            double bytesPerSecond = Math.max(0, m.shippedBytes() - before) / elapsedSeconds;
            rate = String.format(Locale.ROOT, "  %.1f MB/s", bytesPerSecond / MEGABYTE);
            long remaining = Math.max(0, m.neededBytes() - m.shippedBytes());
            eta = bytesPerSecond > 0
                    ? String.format(Locale.ROOT, "  ETA %ds", (long) Math.ceil(remaining / bytesPerSecond))
                    : remaining == 0 ? "  ETA 0s" : "  ETA -";
        }
        int filled = (int) Math.round(m.fraction() * BAR_WIDTH);
        return String.format(
                Locale.ROOT,
                "%s [%s%s] %3d%%  %.1f/%.1f MB%s%s  %s  replicas %s adding %s removing %s",
                m.name(),
                "#".repeat(filled),
                "-".repeat(BAR_WIDTH - filled),
                Math.round(m.fraction() * 100),
                m.shippedBytes() / MEGABYTE,
                m.neededBytes() / MEGABYTE,
                rate,
                eta,
                m.phase().label(),
                m.replicas(),
                m.adding(),
                m.removing());
    }
}
