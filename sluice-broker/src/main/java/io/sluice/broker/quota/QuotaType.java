package io.sluice.broker.quota;

import io.sluice.broker.config.ClientQuotaKeys;

/**
 * The client quotas Sluice enforces, each with the quota key that bounds it and the {@code type} of Kafka's quota
 * MBeans ({@code kafka.server:type=Produce,user=...,client-id=...}).
 *
 * <p>Immutable.
 */
public enum QuotaType {
    /** Bytes per second of produce requests. */
    PRODUCE(ClientQuotaKeys.PRODUCER_BYTE_RATE, "Produce", "byte-rate"),
    /** Bytes per second of consumer fetch responses. */
    FETCH(ClientQuotaKeys.CONSUMER_BYTE_RATE, "Fetch", "byte-rate"),
    /** Percentage of one request-handler thread's time. */
    REQUEST(ClientQuotaKeys.REQUEST_PERCENTAGE, "Request", "request-time");

    private final String key;
    private final String mbeanType;
    private final String rateMetric;

    QuotaType(String key, String mbeanType, String rateMetric) {
        this.key = key;
        this.mbeanType = mbeanType;
        this.rateMetric = rateMetric;
    }

    /** The attribute of Kafka's quota MBean holding the measured rate ({@code byte-rate}, {@code request-time}). */
    public String rateMetric() {
        return rateMetric;
    }

    /** The quota key that bounds this quota ({@code producer_byte_rate}, ...). */
    public String key() {
        return key;
    }

    /** The {@code type} key of Kafka's MBeans for this quota. */
    public String mbeanType() {
        return mbeanType;
    }
}
