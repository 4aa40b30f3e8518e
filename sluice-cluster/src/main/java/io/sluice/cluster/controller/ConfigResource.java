package io.sluice.cluster.controller;

import java.util.Objects;

/**
 * What a dynamic configuration belongs to: a topic by name, or a broker by id (its decimal text; the empty name is
 * the cluster-wide default), as Kafka's ConfigResource names them; or a client quota entity as Kafka's ZooKeeper mode
 * names it under {@code /config}: {@code clients/<client-id>}, {@code users/<user>},
 * {@code users/<user>/clients/<client-id>} and {@code ips/<ip>}, each name sanitized as Kafka does (URL-encoded) and
 * {@code <default>} for a default entity. Immutable; safe to share.
 *
 * @param type TOPIC, BROKER, or one of the client quota kinds
 * @param name the topic name, the broker id as text ("" for the cluster default), or the sanitized entity name below
 *             the kind's directory ({@code alice}, {@code alice/clients/app-1}, {@code <default>})
 */
public record ConfigResource(Type type, String name) {

    /** The kinds of resource Sluice keeps dynamic configurations for. */
    public enum Type {
        TOPIC(null),
        BROKER(null),
        /** Kafka's {@code /config/clients/<client-id>}. */
        CLIENT("clients"),
        /** Kafka's {@code /config/users/<user>} and {@code /config/users/<user>/clients/<client-id>}. */
        USER("users"),
        /** Kafka's {@code /config/ips/<ip>}. */
        IP("ips");

        private final String quotaDirectory;

        Type(String quotaDirectory) {
            this.quotaDirectory = quotaDirectory;
        }

        /** Whether this is a client quota entity kind (its configuration is quotas, kept in the cluster state's quota table). */
        public boolean isClientQuota() {
            return quotaDirectory != null;
        }
    }

    public ConfigResource {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
    }

    /** A client quota entity's path as Kafka's ZooKeeper mode writes it below {@code /config}, e.g. {@code clients/app-1}. */
    public String quotaPath() {
        if (!type.isClientQuota()) {
            throw new IllegalStateException(this + " is not a client quota entity");
        }
        return type.quotaDirectory + "/" + name;
    }

    @Override
    public String toString() {
        if (type.isClientQuota()) {
            return "client quota entity " + quotaPath();
        }
        return type == Type.TOPIC ? "topic '" + name + "'" : name.isEmpty() ? "the cluster default" : "broker " + name;
    }
}
