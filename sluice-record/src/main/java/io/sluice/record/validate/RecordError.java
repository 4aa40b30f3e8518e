package io.sluice.record.validate;

/**
 * One rejected record, reported in Produce v8+ responses: its index inside the batch and why.
 *
 * <p>Immutable; thread-safe.
 *
 * @param batchIndex index of the record inside its batch (0 = first record)
 * @param message    names the field and the value seen
 */
public record RecordError(int batchIndex, String message) {}
