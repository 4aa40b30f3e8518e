package io.sluice.broker.replica;

/**
 * Told when the controller accepted an ISR change this broker proposed as leader (Kafka marks IsrShrinksPerSec and
 * IsrExpandsPerSec at that point) or answered it with an error (FailedIsrUpdatesPerSec). Implementations are
 * thread-safe and quick: they run on the controller channel's answer thread.
 */
@FunctionalInterface
public interface IsrChangeListener {
    IsrChangeListener NONE = (before, after) -> {};

    /** The committed ISR went from {@code before} to {@code after} members. */
    void onIsrChanged(int before, int after);

    /** The controller answered a proposed ISR change with a partition-level error (refused or fenced). */
    default void onIsrChangeFailed() {}
}
