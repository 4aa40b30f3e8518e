package io.sluice.cli.partition;

import java.util.Locale;
import java.util.Map;

/**
 * Renders moves as lines: a progress bar, bytes shipped of total, rate and ETA (from the bytes shipped since the
 * previous reading), phase and replica sets; or as the tab-separated fields {@code sluice cluster status} appends to a
 * partition under reassignment. Stateless; thread-safe.
 */
public final class MoveProgressFormat {
    private static final int BAR_WIDTH = 24;
    private static final double MEGABYTE = 1024.0 * 1024.0;

    private MoveProgressFormat() {}

    /**
     * @param previousShipped bytes shipped per move at the previous reading, {@code elapsedSeconds} ago (empty for
     *                        the first reading: no rate yet)
     */
    static String line(MoveProgress m, Map<String, Long> previousShipped, double elapsedSeconds) {
        Pace pace = Pace.of(m, previousShipped, elapsedSeconds);
        int filled = (int) Math.floor(m.fraction() * BAR_WIDTH);
        return String.format(
                Locale.ROOT,
                "%s [%s%s] %3d%%  %.1f/%.1f MB%s%s  %s  replicas %s adding %s removing %s",
                m.name(),
                "#".repeat(filled),
                "-".repeat(BAR_WIDTH - filled),
                percent(m),
                m.shippedBytes() / MEGABYTE,
                m.neededBytes() / MEGABYTE,
                pace == null ? "" : String.format(Locale.ROOT, "  %.1f MB/s", pace.megabytesPerSecond()),
                pace == null ? "" : "  ETA " + pace.eta(),
                m.phase().label(),
                m.replicas(),
                m.adding(),
                m.removing());
    }

    /**
     * {@code Phase: P \t Shipped: S/T MB \t Progress: N% \t Rate: R MB/s|- \t Eta: Ns|-}: rate and ETA need a previous
     * reading ({@code -} without one).
     */
    public static String statusFields(MoveProgress m, Map<String, Long> previousShipped, double elapsedSeconds) {
        Pace pace = Pace.of(m, previousShipped, elapsedSeconds);
        return String.format(
                Locale.ROOT,
                "Phase: %s\tShipped: %.1f/%.1f MB\tProgress: %d%%\tRate: %s\tEta: %s",
                m.phase().label(),
                m.shippedBytes() / MEGABYTE,
                m.neededBytes() / MEGABYTE,
                percent(m),
                pace == null ? "-" : String.format(Locale.ROOT, "%.1f MB/s", pace.megabytesPerSecond()),
                pace == null ? "-" : pace.eta());
    }

    /**
     * The share shipped in whole percent, rounded down: 100% only once every byte is shipped (a move at 99.5% is not
     * done, and its adding replicas may still be out of sync).
     */
    private static long percent(MoveProgress m) {
        return (long) Math.floor(m.fraction() * 100);
    }

    /** A move's rate since the previous reading and the time left at that rate. */
    private record Pace(double bytesPerSecond, long remainingBytes) {
        /** Null without a previous reading of {@code m}. */
        static Pace of(MoveProgress m, Map<String, Long> previousShipped, double elapsedSeconds) {
            Long before = previousShipped.get(m.name());
            if (before == null || elapsedSeconds <= 0) {
                return null;
            }
            return new Pace(
                    Math.max(0, m.shippedBytes() - before) / elapsedSeconds,
                    Math.max(0, m.neededBytes() - m.shippedBytes()));
        }

        double megabytesPerSecond() {
            return bytesPerSecond / MEGABYTE;
        }

        String eta() {
            if (bytesPerSecond > 0) {
                return String.format(Locale.ROOT, "%ds", (long) Math.ceil(remainingBytes / bytesPerSecond));
            }
            return remainingBytes == 0 ? "0s" : "-";
        }
    }
}
