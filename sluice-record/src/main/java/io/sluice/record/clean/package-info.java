/**
 * Record-level work of the log cleaner: decoding every record of a stored batch (its key bytes where they lie)
 * and rebuilding the batch from the records a cleaner keeps, as Kafka's cleaner rebuilds them (base offset,
 * last offset delta and producer fields kept, the codec kept, an empty header for a producer's last batch).
 */
package io.sluice.record.clean;
