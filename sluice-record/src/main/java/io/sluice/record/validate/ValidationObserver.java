package io.sluice.record.validate;

/**
 * Told of every produce partition a {@link BatchValidator} accepted, for metrics: how many batches it held, how many
 * of them had to be rewritten in the topic's codec (the rest were stamped in place and stored as the producer sent
 * them) and how long validation took.
 *
 * <p>Implementations must be thread-safe and cheap: they run on request-handler threads for every produce.
 */
@FunctionalInterface
public interface ValidationObserver {
    /** Observes nothing (metrics off). */
    ValidationObserver NONE = (batches, recompressed, nanos) -> {};

    void validated(int batches, int recompressedBatches, long nanos);
}
