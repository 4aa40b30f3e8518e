package io.sluice.cli.partition;

import java.util.List;

/**
 * One partition move as seen at one instant: its replica sets, how much of the partition its adding replicas hold,
 * and its phase. Immutable.
 *
 * @param totalBytes   the size of the leader's copy (what each adding replica must end up holding)
 * @param shippedBytes what the adding replicas hold together, each counted up to {@code totalBytes}
 * @param neededBytes  {@code totalBytes} times the number of adding replicas
 */
public record MoveProgress(
        String topic,
        int partition,
        List<Integer> replicas,
        List<Integer> adding,
        List<Integer> removing,
        long totalBytes,
        long shippedBytes,
        long neededBytes,
        Phase phase) {

    /** Where a move is: adding replicas copying the partition, catching up its tail, or all in sync. */
    public enum Phase {
        COPYING("copying"),
        CATCH_UP("catch-up"),
        SWITCHING("switching");

        private final String label;

        Phase(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** Share of the bytes shipped, 0..1 (1 for an empty partition). */
    public double fraction() {
        return neededBytes <= 0 ? 1.0 : Math.min(1.0, (double) shippedBytes / neededBytes);
    }

    public String name() {
        return topic + "-" + partition;
    }
}
