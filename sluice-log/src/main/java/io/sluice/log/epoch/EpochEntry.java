package io.sluice.log.epoch;

/** A leader epoch and the first offset written in it. Immutable. */
public record EpochEntry(int epoch, long startOffset) {}
