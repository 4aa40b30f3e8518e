package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.*;
import static io.sluice.broker.config.ConfigType.BOOLEAN;
import static io.sluice.broker.config.ConfigType.INT;
import static io.sluice.broker.config.ConfigType.STRING;
import static io.sluice.broker.config.ConfigValidator.ANY;
import static io.sluice.broker.config.ConfigValidator.atLeast;
import static io.sluice.broker.config.ConfigValidator.oneOf;

/**
 * The broker keys of client quota measurement, of the HTTP listener serving metrics, and of the metrics themselves.
 * Part of the catalogue {@link BrokerConfigKeys} assembles; the order of the definitions is the documentation order.
 * Stateless; thread-safe.
 */
final class QuotaAndMetricsKeyDefinitions {
    private QuotaAndMetricsKeyDefinitions() {}

    /** How a client quota's rate is sampled; these follow the replica fetch keys. */
    static void defineQuotaWindows(BrokerKeyCatalogue catalogue) {
        catalogue.define(
                QUOTA_WINDOW_NUM,
                INT,
                "11",
                "Samples a client quota's rate is measured over (Kafka's default: ten whole windows and the current one).",
                atLeast(1));
        catalogue.define(
                QUOTA_WINDOW_SIZE_SECONDS,
                INT,
                "1",
                "Length of each sample of a client quota's rate, in seconds.",
                atLeast(1));
    }

    /** The HTTP listener and the metrics switch; these follow the partition move keys. */
    static void defineHttpAndMetrics(BrokerKeyCatalogue catalogue) {
        catalogue.define(
                HTTP_LISTENER,
                STRING,
                null,
                "host:port (a bare port binds 127.0.0.1) of the HTTP listener serving Prometheus metrics at /metrics; unset: no HTTP listener.",
                (key, value) -> HttpListenerAddress.parse((String) value));
        catalogue.define(
                HTTP_AUTHENTICATION,
                STRING,
                "none",
                "basic: the HTTP listener asks for HTTP Basic credentials, checked against the PLAIN and SCRAM accounts the Kafka listeners accept; none: no login (the listener binds 127.0.0.1 unless told otherwise).",
                oneOf("none", "basic"));
        catalogue.define(
                METRICS_ENABLE,
                BOOLEAN,
                "true",
                "false makes the per-request, per-topic and produce-validation metrics no-ops (their MBeans stay at zero), to measure what they cost.",
                ANY);
    }
}
