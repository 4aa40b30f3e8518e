package io.sluice.broker.config;

/**
 * Where an effective configuration value came from, with the id DescribeConfigs reports.
 * Immutable; thread-safe.
 */
public enum ConfigSource {
    /** A per-topic override given at creation or by AlterConfigs. */
    DYNAMIC_TOPIC_CONFIG((byte) 1),
    /** Set for this broker by IncrementalAlterConfigs or AlterConfigs, kept in the cluster state. */
    DYNAMIC_BROKER_CONFIG((byte) 2),
    /** Set for every broker (the empty broker resource name), kept in the cluster state. */
    DYNAMIC_DEFAULT_BROKER_CONFIG((byte) 3),
    /** A key given in the broker's server.properties (or a --override). */
    STATIC_BROKER_CONFIG((byte) 4),
    /** The built-in default. */
    DEFAULT_CONFIG((byte) 5);

    private final byte describeConfigsId;

    ConfigSource(byte describeConfigsId) {
        this.describeConfigsId = describeConfigsId;
    }

    /** The ConfigSource id of the DescribeConfigs response (v1+). */
    public byte describeConfigsId() {
        return describeConfigsId;
    }
}
