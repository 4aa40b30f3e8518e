package io.sluice.log;

/** An offset and the timestamp found for it, answering ListOffsets. Immutable. */
public record OffsetAndTimestamp(long offset, long timestamp) {
}
