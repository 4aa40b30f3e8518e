package io.sluice.cluster.state.wire;

import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.message.ElementType;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The complete dynamic configuration of one entity after a change (Kafka's IncrementalAlterConfigs or AlterConfigs):
 * a topic (by id) or a broker (by id, or {@link #CLUSTER_DEFAULT} for the cluster-wide default). The record carries
 * the whole set, so applying it replaces the entity's previous set; an empty set removes every dynamic value. Maps
 * travel as parallel key and value lists, sorted by key.
 * <p>Entity type {@link #CLIENT_QUOTAS} (written since client quotas; still schema v0, no new field) is the one entity
 * "client quotas": the whole quota table of the cluster, every key the quota entity's path as Kafka's ZooKeeper mode
 * names it below {@code /config} followed by {@code /} and the quota key ({@code clients/app-1/producer_byte_rate},
 * {@code users/alice/clients/%3Cdefault%3E/request_percentage}); entity names are sanitized, so the quota key is what
 * follows the last {@code /}. Like any record it replaces the previous table whole, so a quota change costs one record
 * of the size of the table (bytes per quota set, not per broker or partition). In a snapshot it travels in
 * {@code SnapshotRecord.brokerConfigs} beside the broker records. A broker that predates the type refuses
 * the record as malformed, so every broker must know it before a quota is set.
 * Schema v0: entityType, topicId, brokerId, configKeys, configValues.
 * Mutable value holder; not thread-safe.
 */
public final class ConfigRecord extends StateRecord {
    public static final byte TOPIC = 0;
    public static final byte BROKER = 1;
    /** The cluster's whole client quota table (see the class comment). */
    public static final byte CLIENT_QUOTAS = 2;
    /** The broker id of the cluster-wide default (Kafka's empty broker resource name). */
    public static final int CLUSTER_DEFAULT = -1;

    private static final UUID NO_TOPIC = new UUID(0, 0);
    private static final RecordSchema SCHEMA =
            RecordSchema.of(StateMessages.CONFIG, "entityType", "topicId", "brokerId", "configKeys", "configValues");

    public byte entityType;
    public UUID topicId = NO_TOPIC;
    public int brokerId = CLUSTER_DEFAULT;
    public List<String> configKeys = new ArrayList<>();
    public List<String> configValues = new ArrayList<>();

    public ConfigRecord() {}

    /** The dynamic configuration of topic {@code topicId} after a change. */
    public static ConfigRecord topic(UUID topicId, Map<String, String> configs) {
        ConfigRecord r = new ConfigRecord();
        r.entityType = TOPIC;
        r.topicId = topicId;
        r.fill(configs);
        return r;
    }

    /** The dynamic configuration of broker {@code brokerId} ({@link #CLUSTER_DEFAULT} for all) after a change. */
    public static ConfigRecord broker(int brokerId, Map<String, String> configs) {
        ConfigRecord r = new ConfigRecord();
        r.entityType = BROKER;
        r.brokerId = brokerId;
        r.fill(configs);
        return r;
    }

    /** The whole client quota table after a change: per entity path ({@code clients/app-1}), its quota keys and values. */
    public static ConfigRecord clientQuotas(Map<String, Map<String, String>> quotasByEntity) {
        ConfigRecord r = new ConfigRecord();
        r.entityType = CLIENT_QUOTAS;
        Map<String, String> flat = new TreeMap<>();
        for (Map.Entry<String, Map<String, String>> entity : quotasByEntity.entrySet()) {
            for (Map.Entry<String, String> quota : entity.getValue().entrySet()) {
                flat.put(entity.getKey() + "/" + quota.getKey(), quota.getValue());
            }
        }
        r.fill(flat);
        return r;
    }

    /**
     * The client quota table of a {@link #CLIENT_QUOTAS} record, per entity path, sorted; unmodifiable.
     *
     * @throws MalformedInputException when this is another kind of record, a key has no entity path or no quota key,
     *                                 or {@link #configs()} refuses the record
     */
    public Map<String, Map<String, String>> clientQuotaConfigs() {
        if (entityType != CLIENT_QUOTAS) {
            throw new MalformedInputException("ConfigRecord " + describe() + " is not the client quota table");
        }
        Map<String, Map<String, String>> byEntity = new TreeMap<>();
        for (Map.Entry<String, String> e : configs().entrySet()) {
            int slash = e.getKey().lastIndexOf('/');
            if (slash <= 0 || slash == e.getKey().length() - 1) {
                throw new MalformedInputException(
                        "ConfigRecord client quotas: key '" + e.getKey() + "' is not <entity path>/<quota key>");
            }
            byEntity.computeIfAbsent(e.getKey().substring(0, slash), k -> new TreeMap<>())
                    .put(e.getKey().substring(slash + 1), e.getValue());
        }
        for (Map.Entry<String, Map<String, String>> e : byEntity.entrySet()) {
            e.setValue(Collections.unmodifiableMap(e.getValue()));
        }
        return Collections.unmodifiableMap(byEntity);
    }

    private void fill(Map<String, String> configs) {
        for (Map.Entry<String, String> e : new TreeMap<>(configs).entrySet()) {
            configKeys.add(e.getKey());
            configValues.add(e.getValue());
        }
    }

    /**
     * The configuration read, as an unmodifiable map.
     *
     * @throws MalformedInputException when the entity type is unknown, a topic record has no topic id, a broker id is
     *                                 below {@link #CLUSTER_DEFAULT}, or keys and values do not pair up
     */
    public Map<String, String> configs() {
        if (entityType != TOPIC && entityType != BROKER && entityType != CLIENT_QUOTAS) {
            throw new MalformedInputException("ConfigRecord: unknown entity type " + entityType);
        }
        if (entityType == TOPIC && (topicId == null || NO_TOPIC.equals(topicId))) {
            throw new MalformedInputException("ConfigRecord: topic config without a topic id");
        }
        if (entityType == BROKER && brokerId < CLUSTER_DEFAULT) {
            throw new MalformedInputException("ConfigRecord: broker id " + brokerId);
        }
        List<String> keys = configKeys == null ? List.of() : configKeys;
        List<String> values = configValues == null ? List.of() : configValues;
        if (keys.size() != values.size()) {
            throw new MalformedInputException(
                    "ConfigRecord " + describe() + ": " + keys.size() + " keys but " + values.size() + " values");
        }
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i) == null || values.get(i) == null || keys.get(i).isEmpty()) {
                throw new MalformedInputException("ConfigRecord " + describe() + ": null or empty entry " + i);
            }
            if (out.put(keys.get(i), values.get(i)) != null) {
                throw new MalformedInputException("ConfigRecord " + describe() + ": key " + keys.get(i) + " twice");
            }
        }
        return Collections.unmodifiableMap(out);
    }

    private String describe() {
        if (entityType == CLIENT_QUOTAS) {
            return "client quotas";
        }
        return entityType == TOPIC ? "topic " + topicId : "broker " + brokerId;
    }

    @Override
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeByte(entityType);
            case 1 -> w.writeUuid(topicId);
            case 2 -> w.writeInt(brokerId);
            case 3 -> w.writeList(configKeys, ElementType.STRING);
            case 4 -> w.writeList(configValues, ElementType.STRING);
            default -> throw new IllegalStateException("ConfigRecord field " + index);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> entityType = r.readByte();
            case 1 -> topicId = r.readUuid();
            case 2 -> brokerId = r.readInt();
            case 3 -> configKeys = r.readList(ElementType.STRING);
            case 4 -> configValues = r.readList(ElementType.STRING);
            default -> throw new IllegalStateException("ConfigRecord field " + index);
        }
        return r.isLastRead();
    }

    @Override
    RecordSchema schema() {
        return SCHEMA;
    }
}
