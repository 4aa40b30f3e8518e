package io.sluice.cluster.controller;

import java.util.Objects;

/**
 * What a dynamic configuration belongs to: a topic by name, or a broker by id (its decimal text; the empty name is
 * the cluster-wide default), as Kafka's ConfigResource names them. Immutable; safe to share.
 *
 * @param type TOPIC or BROKER
 * @param name the topic name, or the broker id as text ("" for the cluster default)
 */
public record ConfigResource(Type type, String name) {

    /** The kinds of resource Sluice keeps dynamic configurations for. */
    public enum Type { TOPIC, BROKER }

    public ConfigResource {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
    }

    /** Whether this is the cluster-wide default broker configuration. */
    public boolean isClusterDefault() {
        return type == Type.BROKER && name.isEmpty();
    }

    @Override
    public String toString() {
        return type == Type.TOPIC ? "topic '" + name + "'" : name.isEmpty() ? "the cluster default" : "broker " + name;
    }
}
