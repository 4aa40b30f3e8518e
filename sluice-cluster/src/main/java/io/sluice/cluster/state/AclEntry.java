package io.sluice.cluster.state;

import io.sluice.codec.error.MalformedInputException;

/**
 * One access control entry as the controller keeps it (Kafka's AclBinding): a resource pattern (type, name, LITERAL or
 * PREFIXED) and who may or may not do what from where. The byte fields carry Kafka's own codes
 * ({@code org.apache.kafka.common.resource.ResourceType}, {@code PatternType}, {@code AclOperation},
 * {@code AclPermissionType}), so this module needs no kafka-clients; only concrete values are stored (no ANY, MATCH or
 * UNKNOWN). Equality is the whole entry: adding one twice keeps one.
 *
 * <p>Immutable; thread-safe.
 */
public record AclEntry(
        byte resourceType,
        String resourceName,
        byte patternType,
        String principal,
        String host,
        byte operation,
        byte permissionType)
        implements Comparable<AclEntry> {
    public static final byte TOPIC = 2;
    public static final byte GROUP = 3;
    public static final byte CLUSTER = 4;
    public static final byte TRANSACTIONAL_ID = 5;
    public static final byte DELEGATION_TOKEN = 6;
    public static final byte USER = 7;
    public static final byte LITERAL = 3;
    public static final byte PREFIXED = 4;
    /** AclOperation ALL .. DESCRIBE_TOKENS. */
    public static final byte FIRST_OPERATION = 2;

    public static final byte LAST_OPERATION = 14;
    public static final byte DENY = 2;
    public static final byte ALLOW = 3;

    /**
     * Checks that every field holds a concrete value.
     *
     * @throws MalformedInputException naming the field and the value seen
     */
    public AclEntry {
        if (resourceType < TOPIC || resourceType > USER) {
            throw new MalformedInputException("ACL: resource type " + resourceType + " outside " + TOPIC + ".." + USER);
        }
        if (patternType != LITERAL && patternType != PREFIXED) {
            throw new MalformedInputException("ACL: pattern type " + patternType + " is neither LITERAL nor PREFIXED");
        }
        if (operation < FIRST_OPERATION || operation > LAST_OPERATION) {
            throw new MalformedInputException(
                    "ACL: operation " + operation + " outside " + FIRST_OPERATION + ".." + LAST_OPERATION);
        }
        if (permissionType != DENY && permissionType != ALLOW) {
            throw new MalformedInputException("ACL: permission type " + permissionType + " is neither DENY nor ALLOW");
        }
        if (resourceName == null
                || resourceName.isEmpty()
                || principal == null
                || principal.isEmpty()
                || host == null
                || host.isEmpty()) {
            throw new MalformedInputException(
                    "ACL: empty resource name, principal or host in " + resourceName + " " + principal + " " + host);
        }
    }

    @Override
    public int compareTo(AclEntry o) {
        int c = Byte.compare(resourceType, o.resourceType);
        if (c == 0) {
            c = resourceName.compareTo(o.resourceName);
        }
        if (c == 0) {
            c = Byte.compare(patternType, o.patternType);
        }
        if (c == 0) {
            c = principal.compareTo(o.principal);
        }
        if (c == 0) {
            c = host.compareTo(o.host);
        }
        if (c == 0) {
            c = Byte.compare(operation, o.operation);
        }
        return c != 0 ? c : Byte.compare(permissionType, o.permissionType);
    }
}
