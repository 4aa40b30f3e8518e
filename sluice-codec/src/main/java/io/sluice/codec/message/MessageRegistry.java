package io.sluice.codec.message;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Registered message types: id, name, newest readable schema version and factory. Built once with
 * {@link #builder()}; immutable and safe to share between threads afterwards.
 */
public final class MessageRegistry {
    /** Type ids are small so lookup is one array index. */
    public static final int MAX_TYPE_ID = 1023;

    private final String[] names;
    private final int[] maxVersions;
    private final Supplier<? extends Message>[] factories;

    private MessageRegistry(Builder b) {
        this.names = b.names.clone();
        this.maxVersions = b.maxVersions.clone();
        this.factories = b.factories.clone();
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean isRegistered(int typeId) {
        return typeId >= 0 && typeId <= MAX_TYPE_ID && factories[typeId] != null;
    }

    /** Name of a registered type, or {@code "type#id"}. */
    public String name(int typeId) {
        return isRegistered(typeId) ? names[typeId] : "type#" + typeId;
    }

    public int maxVersion(int typeId) {
        return maxVersions[typeId];
    }

    Message create(int typeId) {
        return factories[typeId].get();
    }

    /** Collects registrations. Not thread-safe; one per registry being built. */
    public static final class Builder {
        private final String[] names = new String[MAX_TYPE_ID + 1];
        private final int[] maxVersions = new int[MAX_TYPE_ID + 1];

        @SuppressWarnings({"unchecked", "rawtypes"})
        private final Supplier<? extends Message>[] factories = new Supplier[MAX_TYPE_ID + 1];

        private Builder() {}

        public Builder register(int typeId, String name, int maxVersion, Supplier<? extends Message> factory) {
            if (typeId < 0 || typeId > MAX_TYPE_ID) {
                throw new IllegalArgumentException("type id " + typeId + " outside 0.." + MAX_TYPE_ID);
            }
            if (factories[typeId] != null) {
                throw new IllegalArgumentException(
                        "type id " + typeId + " already registered as " + names[typeId] + ", cannot register " + name);
            }
            if (maxVersion < 0) {
                throw new IllegalArgumentException("maxVersion of " + name + " must be >= 0, was " + maxVersion);
            }
            names[typeId] = Objects.requireNonNull(name);
            maxVersions[typeId] = maxVersion;
            factories[typeId] = Objects.requireNonNull(factory);
            return this;
        }

        /** Adds every registration of {@code other}. */
        public Builder registerAll(MessageRegistry other) {
            for (int id = 0; id <= MAX_TYPE_ID; id++) {
                if (other.factories[id] != null) {
                    register(id, other.names[id], other.maxVersions[id], other.factories[id]);
                }
            }
            return this;
        }

        public MessageRegistry build() {
            return new MessageRegistry(this);
        }
    }
}
