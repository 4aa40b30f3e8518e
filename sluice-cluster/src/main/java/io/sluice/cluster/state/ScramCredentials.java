package io.sluice.cluster.state;

import io.sluice.cluster.state.wire.ScramRecord;
import io.sluice.codec.error.MalformedInputException;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The SCRAM credentials of the cluster state, at most one per user and mechanism, sorted by user then mechanism. A
 * delta that sets or deletes none shares the instance.
 *
 * <p>Immutable; thread-safe.
 */
public final class ScramCredentials {
    public static final ScramCredentials EMPTY = new ScramCredentials(Collections.emptyNavigableMap());

    private final NavigableMap<ScramCredentialEntry.Key, ScramCredentialEntry> byKey;

    private ScramCredentials(NavigableMap<ScramCredentialEntry.Key, ScramCredentialEntry> byKey) {
        this.byKey = byKey;
    }

    /**
     * The credentials {@code entries} hold.
     *
     * @throws MalformedInputException when two have the same user and mechanism
     */
    public static ScramCredentials of(Collection<ScramCredentialEntry> entries) {
        if (entries.isEmpty()) {
            return EMPTY;
        }
        TreeMap<ScramCredentialEntry.Key, ScramCredentialEntry> map = new TreeMap<>();
        for (ScramCredentialEntry e : entries) {
            if (map.put(e.key(), e) != null) {
                throw new MalformedInputException(
                        "two SCRAM credentials of " + e.user() + " for mechanism " + e.mechanism());
            }
        }
        return new ScramCredentials(Collections.unmodifiableNavigableMap(map));
    }

    /** These credentials with {@code deleted} removed first (absent ones ignored), then {@code set} put. */
    ScramCredentials apply(List<?> deleted, List<?> set, String where) {
        if (deleted.isEmpty() && set.isEmpty()) {
            return this;
        }
        TreeMap<ScramCredentialEntry.Key, ScramCredentialEntry> next = new TreeMap<>(byKey);
        for (Object r : deleted) {
            next.remove(record(r, where + " deletedScram").toKey());
        }
        for (Object r : set) {
            ScramCredentialEntry e = record(r, where + " setScram").toEntry();
            next.put(e.key(), e);
        }
        return new ScramCredentials(Collections.unmodifiableNavigableMap(next));
    }

    /** A decoded element that must be a {@link ScramRecord}; a null or another message (garbage) is malformed. */
    static ScramRecord record(Object decoded, String where) {
        if (!(decoded instanceof ScramRecord r)) {
            throw new MalformedInputException(where + ": expected a ScramRecord but read "
                    + (decoded == null ? "null" : decoded.getClass().getSimpleName()));
        }
        return r;
    }

    /** The credential of {@code user} for {@code mechanism} (Kafka's code), null when there is none. */
    public ScramCredentialEntry get(String user, byte mechanism) {
        if (user == null || user.isEmpty() || byKey.isEmpty()) {
            return null;
        }
        try {
            return byKey.get(new ScramCredentialEntry.Key(user, mechanism));
        } catch (MalformedInputException unknownMechanism) {
            return null;
        }
    }

    /** Every credential, sorted by user, then mechanism; unmodifiable. */
    public Collection<ScramCredentialEntry> all() {
        return byKey.values();
    }

    public boolean isEmpty() {
        return byKey.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScramCredentials s && byKey.equals(s.byKey);
    }

    @Override
    public int hashCode() {
        return byKey.hashCode();
    }

    @Override
    public String toString() {
        return byKey.values().toString();
    }
}
