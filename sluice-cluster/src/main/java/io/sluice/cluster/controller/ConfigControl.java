package io.sluice.cluster.controller;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.ConfigRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Kafka's IncrementalAlterConfigs and AlterConfigs as the controller runs them: each resource on its own (one
 * refused resource does not stop the others), its new dynamic configuration computed from the published one (SET,
 * DELETE, APPEND and SUBTRACT; or, for AlterConfigs, the given keys replacing the whole set), checked by the
 * broker module's {@link ConfigSchema}, and, unless validate-only, added to the delta as the entity's complete
 * configuration ({@link ConfigRecord}). A change that leaves the configuration as it is publishes nothing. Client
 * quota entities (Kafka's AlterClientQuotas, as SET and DELETE operations) change the cluster's quota table, which is
 * published once per call, whole, after every change of the call ({@link ConfigRecord#clientQuotas}).
 *
 * <p>Pure logic over a {@link ClusterState} and one delta; stateless, safe to share.
 */
final class ConfigControl {

    private ConfigControl() {}

    /** One result per change, in request order; accepted changes go into {@code out} unless {@code validateOnly}. */
    static List<ConfigChangeResult> alter(
            ClusterState state,
            List<ConfigChange> changes,
            ConfigSchema schema,
            boolean validateOnly,
            List<ConfigRecord> out) {
        List<ConfigChangeResult> results = new ArrayList<>(changes.size());
        Map<String, Map<String, String>> quotas = state.clientQuotaConfigs();
        boolean quotasChanged = false;
        for (ConfigChange change : changes) {
            try {
                if (change.resource().type().isClientQuota()) {
                    Map<String, Map<String, String>> next = alterQuotas(state, quotas, change, schema);
                    quotasChanged |= next != quotas;
                    quotas = next;
                    results.add(new ConfigChangeResult(change.resource(), ConfigError.NONE, null));
                    continue;
                }
                ConfigRecord record = alterOne(state, change, schema);
                if (record != null && !validateOnly) {
                    out.add(record);
                }
                results.add(new ConfigChangeResult(change.resource(), ConfigError.NONE, null));
            } catch (ConfigRefusedException e) {
                results.add(new ConfigChangeResult(change.resource(), e.error(), e.getMessage()));
            }
        }
        if (quotasChanged && !validateOnly) {
            out.add(ConfigRecord.clientQuotas(quotas));
        }
        return results;
    }

    /** The quota table after {@code change}, the same instance when the entity's quotas stay as they are. */
    private static Map<String, Map<String, String>> alterQuotas(
            ClusterState state, Map<String, Map<String, String>> quotas, ConfigChange change, ConfigSchema schema)
            throws ConfigRefusedException {
        ConfigResource resource = change.resource();
        String path = resource.quotaPath();
        Map<String, String> current = quotas.getOrDefault(path, Map.of());
        Map<String, String> next = apply(resource, current, change, schema);
        schema.validate(resource, current, next, state);
        if (next.equals(current)) {
            return quotas;
        }
        Map<String, Map<String, String>> table = new TreeMap<>(quotas);
        if (next.isEmpty()) {
            table.remove(path);
        } else {
            table.put(path, next);
        }
        return table;
    }

    /** The record of the resource's new configuration, null when nothing changes. */
    private static ConfigRecord alterOne(ClusterState state, ConfigChange change, ConfigSchema schema)
            throws ConfigRefusedException {
        ConfigResource resource = change.resource();
        TopicState topic = null;
        int brokerId = ConfigRecord.CLUSTER_DEFAULT;
        Map<String, String> current;
        if (resource.type() == ConfigResource.Type.TOPIC) {
            topic = state.topic(resource.name());
            if (topic == null) {
                throw new ConfigRefusedException(
                        ConfigError.UNKNOWN_TOPIC_OR_PARTITION, "The topic '" + resource.name() + "' does not exist.");
            }
            current = topic.configs();
        } else {
            brokerId = brokerId(resource);
            current = state.brokerConfigs(brokerId);
        }
        Map<String, String> next = apply(resource, current, change, schema);
        schema.validate(resource, current, next, state);
        if (next.equals(current)) {
            return null;
        }
        return topic != null ? ConfigRecord.topic(topic.id(), next) : ConfigRecord.broker(brokerId, next);
    }

    private static int brokerId(ConfigResource resource) throws ConfigRefusedException {
        if (resource.name().isEmpty()) {
            return ConfigRecord.CLUSTER_DEFAULT;
        }
        try {
            int id = Integer.parseInt(resource.name());
            if (id >= 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new ConfigRefusedException(
                ConfigError.INVALID_REQUEST,
                "Illegal broker resource name '" + resource.name()
                        + "': expected a broker id or the empty name of the cluster default");
    }

    private static Map<String, String> apply(
            ConfigResource resource, Map<String, String> current, ConfigChange change, ConfigSchema schema)
            throws ConfigRefusedException {
        Set<String> seen = new HashSet<>();
        for (ConfigOperation op : change.operations()) {
            if (!seen.add(op.key())) {
                throw new ConfigRefusedException(
                        ConfigError.INVALID_REQUEST,
                        "Error due to duplicate config keys: " + op.key() + " is named more than once");
            }
        }
        Map<String, String> next = new TreeMap<>(change.replaceAll() ? Map.of() : current);
        for (ConfigOperation op : change.operations()) {
            String key = op.key();
            switch (op.type()) {
                case SET:
                    if (op.value() == null) {
                        throw new ConfigRefusedException(
                                ConfigError.INVALID_CONFIG, "Null value not supported for configuration '" + key + "'");
                    }
                    next.put(key, op.value().trim());
                    break;
                case DELETE:
                    next.remove(key);
                    break;
                case APPEND:
                case SUBTRACT:
                    if (!schema.isList(resource.type(), key)) {
                        throw new ConfigRefusedException(
                                ConfigError.INVALID_CONFIG,
                                "Can't " + op.type() + " to key " + key + " because its type is not LIST.");
                    }
                    String base = current.containsKey(key) ? current.get(key) : schema.baseValue(resource, key);
                    List<String> items = splitList(base);
                    for (String item : splitList(op.value())) {
                        if (op.type() == ConfigOperation.Type.APPEND) {
                            if (!items.contains(item)) {
                                items.add(item);
                            }
                        } else {
                            items.remove(item);
                        }
                    }
                    next.put(key, String.join(",", items));
                    break;
                default:
                    throw new IllegalStateException("operation " + op.type());
            }
        }
        return next;
    }

    /** Comma-separated items, trimmed, empty ones dropped, order kept. */
    static List<String> splitList(String text) {
        List<String> items = new ArrayList<>();
        if (text == null) {
            return items;
        }
        for (String part : text.split(",")) {
            String item = part.trim();
            if (!item.isEmpty()) {
                items.add(item);
            }
        }
        return items;
    }
}
