package io.sluice.cli.produce;

/**
 * Key and value of one input line; either may be null (a Kafka null, not empty).
 * Immutable by convention (the arrays are not copied); thread-safe once built.
 *
 * @param key   key bytes or null
 * @param value value bytes or null
 */
public record LineRecord(byte[] key, byte[] value) {}
