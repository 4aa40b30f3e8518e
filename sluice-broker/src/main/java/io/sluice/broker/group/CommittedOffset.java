package io.sluice.broker.group;

/**
 * A committed offset as the coordinator holds it. {@code expireTimestampMs} is -1 unless the committing client
 * asked for an explicit retention. Immutable.
 */
record CommittedOffset(long offset, int leaderEpoch, String metadata, long commitTimestampMs, long expireTimestampMs) {}
