package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.*;
import static io.sluice.broker.config.ConfigType.INT;
import static io.sluice.broker.config.ConfigType.LONG;
import static io.sluice.broker.config.ConfigValidator.atLeast;

/**
 * The broker keys of consumer groups and committed offsets, and of idle producer ids' expiry. Part of the catalogue
 * {@link BrokerConfigKeys} assembles; the order of the definitions is the documentation order.
 * Stateless; thread-safe.
 */
final class GroupAndOffsetKeyDefinitions {
    private GroupAndOffsetKeyDefinitions() {}

    /** Defines the group and offset keys, after the cluster membership keys. */
    static void defineInto(BrokerKeyCatalogue catalogue) {
        catalogue.define(
                GROUP_INITIAL_REBALANCE_DELAY_MS,
                INT,
                "3000",
                "How long a new consumer group waits for more members before its first rebalance.",
                atLeast(0));
        catalogue.define(
                GROUP_MIN_SESSION_TIMEOUT_MS,
                INT,
                "6000",
                "Smallest session timeout a consumer may ask for.",
                atLeast(0));
        catalogue.define(
                GROUP_MAX_SESSION_TIMEOUT_MS,
                INT,
                "1800000",
                "Largest session timeout a consumer may ask for.",
                atLeast(0));
        catalogue.define(
                GROUP_MAX_SIZE,
                INT,
                String.valueOf(Integer.MAX_VALUE),
                "Most members one consumer group may have.",
                atLeast(1));
        catalogue.define(
                GROUP_MEMBER_METADATA_MAX_BYTES,
                INT,
                "1048576",
                "Most bytes of one member's protocol metadata, and of one assignment, so one client cannot"
                        + " bloat the stored group record (Kafka's implicit cap is the offsets topic's message size).",
                atLeast(0));
        catalogue.define(
                OFFSET_METADATA_MAX_BYTES,
                INT,
                "4096",
                "Most bytes of the metadata string a committed offset may carry.",
                atLeast(0));
        catalogue.define(
                OFFSETS_TOPIC_NUM_PARTITIONS,
                INT,
                "50",
                "Partitions of the committed-offsets topic (fixed once created).",
                atLeast(1));
        catalogue.define(
                OFFSETS_TOPIC_REPLICATION_FACTOR,
                INT,
                "3",
                "Replication factor of the committed-offsets topic, capped to the live brokers when it is created.",
                atLeast(1));
        catalogue.define(
                OFFSETS_COMMIT_TIMEOUT_MS,
                INT,
                "5000",
                "How long a commit or group change waits for every in-sync replica before it fails as timed out.",
                atLeast(1));
        catalogue.define(
                OFFSETS_RETENTION_MINUTES,
                INT,
                "10080",
                "Committed offsets of an empty group are kept this long.",
                atLeast(1));
        catalogue.define(
                OFFSETS_RETENTION_CHECK_INTERVAL_MS,
                LONG,
                "600000",
                "How often expired committed offsets are removed.",
                atLeast(1));
        catalogue.define(
                PRODUCER_ID_EXPIRATION_MS,
                INT,
                "86400000",
                "Idempotent producer state is dropped after this long without a write.",
                atLeast(1));
    }
}
