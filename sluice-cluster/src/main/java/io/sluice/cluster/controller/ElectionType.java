package io.sluice.cluster.controller;

/**
 * Kafka's leader election types (ElectLeaders' {@code ElectionType}, same numeric values). Immutable; safe to share.
 */
public enum ElectionType {
    /** Move leadership to the preferred (first assigned) replica when it is live and in sync. */
    PREFERRED((byte) 0),
    /** Give a partition without a leader any live replica, in sync or not, accepting possible data loss. */
    UNCLEAN((byte) 1);

    private final byte value;

    ElectionType(byte value) {
        this.value = value;
    }

    /** Kafka's wire value. */
    public byte value() {
        return value;
    }

    /** The type with Kafka's wire value {@code value}. */
    public static ElectionType of(byte value) {
        for (ElectionType t : values()) {
            if (t.value == value) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown election type " + value);
    }
}
