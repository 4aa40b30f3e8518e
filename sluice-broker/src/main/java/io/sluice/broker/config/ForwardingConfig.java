package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.CONTROLLER_FORWARD_RETRY_BACKOFF_MS;
import static io.sluice.broker.config.BrokerConfigKeys.CONTROLLER_FORWARD_WAIT_MS;

import java.util.Map;

/**
 * How a change this broker forwards to the controller (configs, client quotas, ACLs, SCRAM credentials) is retried
 * while no controller takes it: for {@code waitMs} at most, {@code retryBackoffMs} apart (see {@link BrokerConfigKeys}
 * for each key's meaning and default). Immutable.
 */
public record ForwardingConfig(long waitMs, long retryBackoffMs) {

    public static ForwardingConfig of(BrokerConfig config) {
        return new ForwardingConfig(
                config.longValue(CONTROLLER_FORWARD_WAIT_MS), config.longValue(CONTROLLER_FORWARD_RETRY_BACKOFF_MS));
    }

    /** The keys' defaults, for channels built without a broker configuration (tests). */
    public static ForwardingConfig defaults() {
        return of(BrokerConfig.fromMap(Map.of()));
    }
}
