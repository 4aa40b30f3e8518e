package io.sluice.cluster.controller;

/**
 * The outcome of one resource of a config change, each with the Kafka error code a client expects
 * ({@link #kafkaCode()}; sluice-cluster does not depend on kafka-clients). Immutable; safe to share.
 */
public enum ConfigError {
    NONE(0),
    /** The topic named does not exist. */
    UNKNOWN_TOPIC_OR_PARTITION(3),
    /** An unknown key, a value that does not parse or validate, APPEND or SUBTRACT on a key that is not a list. */
    INVALID_CONFIG(40),
    /** A key named twice, a malformed broker id, or a broker key that cannot change while the broker runs. */
    INVALID_REQUEST(42);

    private final short kafkaCode;

    ConfigError(int kafkaCode) {
        this.kafkaCode = (short) kafkaCode;
    }

    /** Kafka's error code ({@code org.apache.kafka.common.protocol.Errors#code()}). */
    public short kafkaCode() {
        return kafkaCode;
    }
}
