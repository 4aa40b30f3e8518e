package io.sluice.cluster.controller;

/**
 * Told of every cluster-state publication the active controller completes, for metrics: a delta (one znode) or a
 * snapshot (its parts and manifest), with the bytes written to ZooKeeper for it and the time from encoding to the last
 * write committed. The bytes of all publications add up to {@link ControllerStats#bytesWritten}.
 *
 * <p>Implementations must be thread-safe and quick: they run on the controller thread.
 */
@FunctionalInterface
public interface PublicationObserver {
    /** Observes nothing. */
    PublicationObserver NONE = (kind, bytes, nanos) -> {};

    /** What was published. */
    enum Kind {
        DELTA,
        SNAPSHOT
    }

    void published(Kind kind, long bytes, long nanos);
}
