package io.sluice.broker.security.acl;

import io.sluice.cluster.state.AclEntry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The access control entries of one cluster state, indexed for Kafka's matching: per resource type, LITERAL entries
 * by exact name (the {@code *} wildcard among them) and PREFIXED entries by prefix. What applies to a resource is its
 * literal entries, the wildcard's, and those of every prefix of its name.
 *
 * <p>Immutable after construction; thread-safe.
 */
final class AclIndex {
    static final String WILDCARD = "*";

    private final Map<Byte, Map<String, List<AclEntry>>> literal = new HashMap<>();
    private final Map<Byte, Map<String, List<AclEntry>>> prefixed = new HashMap<>();
    private final Map<Byte, List<AclEntry>> byType = new HashMap<>();

    AclIndex(Collection<AclEntry> entries) {
        for (AclEntry e : entries) {
            Map<Byte, Map<String, List<AclEntry>>> side = e.patternType() == AclEntry.LITERAL ? literal : prefixed;
            side.computeIfAbsent(e.resourceType(), t -> new HashMap<>())
                    .computeIfAbsent(e.resourceName(), n -> new ArrayList<>())
                    .add(e);
            byType.computeIfAbsent(e.resourceType(), t -> new ArrayList<>()).add(e);
        }
    }

    /** Every entry that applies to resource {@code name} of {@code resourceType}; empty when none does. */
    List<AclEntry> matching(byte resourceType, String name) {
        List<AclEntry> out = new ArrayList<>();
        Map<String, List<AclEntry>> lit = literal.get(resourceType);
        if (lit != null) {
            addAll(out, lit.get(name));
            if (!WILDCARD.equals(name)) {
                addAll(out, lit.get(WILDCARD));
            }
        }
        Map<String, List<AclEntry>> pre = prefixed.get(resourceType);
        if (pre != null) {
            for (int end = 1; end <= name.length(); end++) {
                addAll(out, pre.get(name.substring(0, end)));
            }
        }
        return out;
    }

    /** Every entry on resources of {@code resourceType}, whatever their name. */
    List<AclEntry> ofType(byte resourceType) {
        List<AclEntry> all = byType.get(resourceType);
        return all == null ? List.of() : all;
    }

    private static void addAll(List<AclEntry> out, List<AclEntry> found) {
        if (found != null) {
            out.addAll(found);
        }
    }
}
