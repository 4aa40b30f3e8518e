package io.sluice.broker.security.acl;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.state.AclEntry;
import io.sluice.cluster.state.ClusterState;
import java.util.HashSet;
import java.util.List;
import java.util.NavigableSet;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Kafka's ACL authorizer ({@code kafka.security.authorizer.AclAuthorizer}; StandardAuthorizer decides the same way)
 * over the entries of the applied cluster state: a super user may do anything; a resource no entry names is open only
 * with {@code allow.everyone.if.no.acl.found}; otherwise a matching DENY wins, then a matching ALLOW grants, where
 * Describe is also granted by Read, Write, Delete or Alter, DescribeConfigs by AlterConfigs, and ALL grants or denies
 * every operation. Principals match exactly or as {@code User:*}; hosts exactly or as {@code *}. Disabled (no
 * {@code authorizer.class.name}), everything is allowed, as in Kafka.
 *
 * <p>Thread-safe: the index is rebuilt from an immutable set and published through a volatile field.
 */
public final class AclAuthorizer {
    public static final String WILDCARD_PRINCIPAL = "User:*";
    public static final String WILDCARD_HOST = "*";
    /** The one name of the cluster resource. */
    public static final String CLUSTER_NAME = "kafka-cluster";

    private final boolean enabled;
    private final Set<String> superUsers;
    private final boolean allowEveryoneIfNoAclFound;
    private final Supplier<ClusterState> state;
    private volatile Indexed indexed = new Indexed(null, new AclIndex(List.of()));

    private record Indexed(NavigableSet<AclEntry> source, AclIndex index) {}

    public AclAuthorizer(
            boolean enabled, String superUsers, boolean allowEveryoneIfNoAclFound, Supplier<ClusterState> state) {
        this.enabled = enabled;
        this.superUsers = parseSuperUsers(superUsers);
        this.allowEveryoneIfNoAclFound = allowEveryoneIfNoAclFound;
        this.state = state;
    }

    /** The authorizer a broker's configuration asks for, reading entries from {@code state}. */
    public static AclAuthorizer of(BrokerConfig config, Supplier<ClusterState> state) {
        return new AclAuthorizer(
                !config.authorizerClassName().isEmpty(),
                config.superUsers(),
                config.allowEveryoneIfNoAclFound(),
                state);
    }

    /** No authorizer: everything is allowed (tests, single-node default). */
    public static AclAuthorizer disabled() {
        return new AclAuthorizer(false, "", false, () -> ClusterState.EMPTY);
    }

    /** Whether ACLs are checked (an authorizer is configured); CreateAcls and friends answer SECURITY_DISABLED if not. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * What CreateAcls, DescribeAcls and DeleteAcls answer before looking at their content: SECURITY_DISABLED without an
     * authorizer, CLUSTER_AUTHORIZATION_FAILED without {@code operation} on the cluster; null when the request may go on.
     */
    public Errors aclApiRefusal(RequestContext request, AclOperation operation) {
        if (!enabled) {
            return Errors.SECURITY_DISABLED;
        }
        return authorize(request, operation, ResourceType.CLUSTER, CLUSTER_NAME)
                ? null
                : Errors.CLUSTER_AUTHORIZATION_FAILED;
    }

    /** The message sent with {@link #aclApiRefusal}'s error, as Kafka words it. */
    public static String refusalMessage(Errors error) {
        return error == Errors.SECURITY_DISABLED ? "No Authorizer is configured." : error.message();
    }

    /** Every access control entry of the applied cluster state, sorted (DescribeAcls). */
    public NavigableSet<AclEntry> acls() {
        return state.get().acls();
    }

    /** Whether the request's principal, from its host, may perform {@code operation} on the named resource. */
    public boolean authorize(RequestContext request, AclOperation operation, ResourceType type, String name) {
        return authorize(request.principal().toString(), request.clientHost(), operation, type, name);
    }

    /** Whether {@code principal} ({@code User:name}) from {@code host} may perform {@code operation} on the resource. */
    public boolean authorize(String principal, String host, AclOperation operation, ResourceType type, String name) {
        if (!enabled || superUsers.contains(principal)) {
            return true;
        }
        List<AclEntry> matching = index().matching(type.code(), name);
        if (matching.isEmpty()) {
            return allowEveryoneIfNoAclFound;
        }
        if (anyMatch(matching, principal, host, operation.code(), AclEntry.DENY)) {
            return false;
        }
        for (AclOperation granting : grantedBy(operation)) {
            if (anyMatch(matching, principal, host, granting.code(), AclEntry.ALLOW)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Kafka's {@code authorizeByResourceType}: whether some resource of {@code type} exists on which the principal
     * may perform {@code operation} (an ALLOW not covered by a DENY on the same or a wider pattern). InitProducerId
     * without a transactional id asks this for Write on topics.
     */
    public boolean authorizeAny(RequestContext request, AclOperation operation, ResourceType type) {
        String principal = request.principal().toString();
        if (!enabled || superUsers.contains(principal)) {
            return true;
        }
        List<AclEntry> all = index().ofType(type.code());
        Set<String> deniedLiterals = new HashSet<>();
        Set<String> deniedPrefixes = new HashSet<>();
        for (AclEntry e : all) {
            if (e.permissionType() == AclEntry.DENY && applies(e, principal, request.clientHost(), operation.code())) {
                (e.patternType() == AclEntry.LITERAL ? deniedLiterals : deniedPrefixes).add(e.resourceName());
            }
        }
        if (deniedLiterals.contains(AclIndex.WILDCARD) || deniedPrefixes.contains("")) {
            return false;
        }
        for (AclEntry e : all) {
            if (e.permissionType() == AclEntry.ALLOW
                    && applies(e, principal, request.clientHost(), operation.code())
                    && !(e.patternType() == AclEntry.LITERAL && deniedLiterals.contains(e.resourceName()))
                    && !coveredByPrefix(e.resourceName(), deniedPrefixes)) {
                return true;
            }
        }
        return all.isEmpty() && allowEveryoneIfNoAclFound;
    }

    private static boolean coveredByPrefix(String name, Set<String> prefixes) {
        for (String p : prefixes) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** The operations whose ALLOW grants {@code operation} (Kafka's implications). */
    static List<AclOperation> grantedBy(AclOperation operation) {
        switch (operation) {
            case DESCRIBE:
                return List.of(
                        AclOperation.DESCRIBE,
                        AclOperation.READ,
                        AclOperation.WRITE,
                        AclOperation.DELETE,
                        AclOperation.ALTER);
            case DESCRIBE_CONFIGS:
                return List.of(AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS);
            default:
                return List.of(operation);
        }
    }

    private static boolean anyMatch(
            List<AclEntry> entries, String principal, String host, byte operation, byte permission) {
        for (AclEntry e : entries) {
            if (e.permissionType() == permission && applies(e, principal, host, operation)) {
                return true;
            }
        }
        return false;
    }

    private static boolean applies(AclEntry e, String principal, String host, byte operation) {
        return (e.principal().equals(principal) || e.principal().equals(WILDCARD_PRINCIPAL))
                && (e.host().equals(host) || e.host().equals(WILDCARD_HOST))
                && (e.operation() == operation || e.operation() == AclOperation.ALL.code());
    }

    private AclIndex index() {
        NavigableSet<AclEntry> current = state.get().acls();
        Indexed seen = indexed;
        if (seen.source() != current) {
            seen = new Indexed(current, new AclIndex(current));
            indexed = seen;
        }
        return seen.index();
    }

    private static Set<String> parseSuperUsers(String text) {
        Set<String> users = new HashSet<>();
        if (text != null) {
            for (String part : text.split(";")) {
                String user = part.trim();
                if (!user.isEmpty()) {
                    users.add(user);
                }
            }
        }
        return Set.copyOf(users);
    }
}
