package io.sluice.broker.security.acl;

import io.sluice.cluster.state.AclEntry;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Between the cluster state's {@link AclEntry} and kafka-clients' {@link AclBinding}, whose filters
 * ({@code AclBindingFilter.matches}) are Kafka's own matching rules for DescribeAcls and DeleteAcls; and the checks
 * Kafka makes on a new binding before storing it.
 *
 * <p>Stateless; thread-safe.
 */
public final class AclBindings {
    /** The one name of the cluster resource. */
    public static final String CLUSTER_NAME = AclAuthorizer.CLUSTER_NAME;

    private AclBindings() {}

    public static AclBinding toBinding(AclEntry e) {
        return new AclBinding(
                new ResourcePattern(
                        ResourceType.fromCode(e.resourceType()),
                        e.resourceName(),
                        PatternType.fromCode(e.patternType())),
                new AccessControlEntry(
                        e.principal(),
                        e.host(),
                        AclOperation.fromCode(e.operation()),
                        AclPermissionType.fromCode(e.permissionType())));
    }

    /**
     * The entry a CreateAcls creation stores, checked as Kafka's controller checks it.
     *
     * @throws InvalidRequestException (INVALID_REQUEST) naming the field and value that Kafka refuses
     */
    public static AclEntry toEntry(AclBinding b) {
        ResourcePattern p = b.pattern();
        AccessControlEntry a = b.entry();
        if (p.resourceType() == ResourceType.ANY || p.resourceType() == ResourceType.UNKNOWN) {
            throw new InvalidRequestException("Invalid resourceType " + p.resourceType());
        }
        if (p.patternType() != PatternType.LITERAL && p.patternType() != PatternType.PREFIXED) {
            throw new InvalidRequestException("Invalid patternType " + p.patternType());
        }
        if (a.operation() == AclOperation.ANY || a.operation() == AclOperation.UNKNOWN) {
            throw new InvalidRequestException("Invalid operation " + a.operation());
        }
        if (a.permissionType() != AclPermissionType.ALLOW && a.permissionType() != AclPermissionType.DENY) {
            throw new InvalidRequestException("Invalid permissionType " + a.permissionType());
        }
        if (p.name() == null || p.name().isEmpty()) {
            throw new InvalidRequestException("Invalid empty resource name");
        }
        if (p.resourceType() == ResourceType.CLUSTER && !CLUSTER_NAME.equals(p.name())) {
            throw new InvalidRequestException("The only valid name for the CLUSTER resource is " + CLUSTER_NAME);
        }
        if (a.principal() == null || a.principal().indexOf(':') <= 0) {
            throw new InvalidRequestException("Could not parse principal from `" + a.principal() + "` "
                    + "(no colon is present separating the principal type from the principal name)");
        }
        if (a.host() == null || a.host().isEmpty()) {
            throw new InvalidRequestException("Invalid empty host");
        }
        return new AclEntry(
                p.resourceType().code(),
                p.name(),
                p.patternType().code(),
                a.principal(),
                a.host(),
                a.operation().code(),
                a.permissionType().code());
    }
}
