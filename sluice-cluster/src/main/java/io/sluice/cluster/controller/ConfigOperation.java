package io.sluice.cluster.controller;

import java.util.Objects;

/**
 * One operation of Kafka's IncrementalAlterConfigs on one key. Immutable; safe to share.
 *
 * @param type  SET, DELETE, APPEND or SUBTRACT (the last two for list-typed keys only)
 * @param key   the configuration key
 * @param value the value to set, or the comma-separated items to append or subtract; ignored by DELETE
 */
public record ConfigOperation(Type type, String key, String value) {

    /** Kafka's AlterConfigOp.OpType, in its id order (0..3). */
    public enum Type {
        SET,
        DELETE,
        APPEND,
        SUBTRACT
    }

    public ConfigOperation {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(key, "key");
    }

    /** The operation of Kafka's id {@code id}, or null when there is none. */
    public static Type typeOf(byte id) {
        Type[] all = Type.values();
        return id >= 0 && id < all.length ? all[id] : null;
    }
}
