package io.sluice.cluster.state.wire;

import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.message.ElementType;
import io.sluice.codec.message.Message;
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
 * Schema v0: entityType, topicId, brokerId, configKeys, configValues.
 * Mutable value holder; not thread-safe.
 */
public final class ConfigRecord implements Message {
    public static final byte TOPIC = 0;
    public static final byte BROKER = 1;
    /** The broker id of the cluster-wide default (Kafka's empty broker resource name). */
    public static final int CLUSTER_DEFAULT = -1;
    private static final UUID NO_TOPIC = new UUID(0, 0);
    private static final String[] FIELDS = {"entityType", "topicId", "brokerId", "configKeys", "configValues"};

    public byte entityType;
    public UUID topicId = NO_TOPIC;
    public int brokerId = CLUSTER_DEFAULT;
    public List<String> configKeys = new ArrayList<>();
    public List<String> configValues = new ArrayList<>();

    public ConfigRecord() {
    }

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
        if (entityType != TOPIC && entityType != BROKER) {
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
            throw new MalformedInputException("ConfigRecord " + describe() + ": " + keys.size() + " keys but "
                    + values.size() + " values");
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
        return entityType == TOPIC ? "topic " + topicId : "broker " + brokerId;
    }

    @Override
    public int typeId() {
        return StateMessages.CONFIG;
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean writeTo(MessageWriter w) {
        switch (w.state()) {
            case 0:
                if (!w.writeByte(entityType)) {
                    return false;
                }
                w.incrementState();
            case 1:
                if (!w.writeUuid(topicId)) {
                    return false;
                }
                w.incrementState();
            case 2:
                if (!w.writeInt(brokerId)) {
                    return false;
                }
                w.incrementState();
            case 3:
                if (!w.writeList(configKeys, ElementType.STRING)) {
                    return false;
                }
                w.incrementState();
            case 4:
                if (!w.writeList(configValues, ElementType.STRING)) {
                    return false;
                }
                w.incrementState();
            default:
                return true;
        }
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean readFrom(MessageReader r) {
        switch (r.state()) {
            case 0:
                entityType = r.readByte();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 1:
                topicId = r.readUuid();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 2:
                brokerId = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 3:
                configKeys = r.readList(ElementType.STRING);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 4:
                configValues = r.readList(ElementType.STRING);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            default:
                return true;
        }
    }

    @Override
    public String fieldName(int index) {
        return index < FIELDS.length ? FIELDS[index] : "end";
    }
}
