package io.sluice.broker.security.acl;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.state.AclEntry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.message.DescribeAclsRequestData;
import org.apache.kafka.common.message.DescribeAclsResponseData;
import org.apache.kafka.common.message.DescribeAclsResponseData.AclDescription;
import org.apache.kafka.common.message.DescribeAclsResponseData.DescribeAclsResource;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DescribeAcls ({@code kafka-acls.sh --list}, {@code Admin.describeAcls}): the entries this broker has applied that
 * match the filter by Kafka's rules ({@link AclBindingFilter#matches}; pattern type MATCH finds the literal, wildcard
 * and prefixed patterns that apply to a name), grouped by resource pattern. Needs Describe on the cluster
 * (CLUSTER_AUTHORIZATION_FAILED) and an authorizer (SECURITY_DISABLED); a filter with unknown elements is
 * INVALID_REQUEST.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class DescribeAclsHandler implements ApiHandler<DescribeAclsRequestData> {
    private final AclAuthorizer authorizer;

    public DescribeAclsHandler(AclAuthorizer authorizer) {
        this.authorizer = authorizer;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, DescribeAclsRequestData request) {
        DescribeAclsResponseData response = new DescribeAclsResponseData();
        Errors refused = authorizer.aclApiRefusal(context, AclOperation.DESCRIBE);
        if (refused != null) {
            return done(response, refused, AclAuthorizer.refusalMessage(refused));
        }
        AclBindingFilter filter = new AclBindingFilter(
                new ResourcePatternFilter(
                        ResourceType.fromCode(request.resourceTypeFilter()),
                        request.resourceNameFilter(),
                        PatternType.fromCode(request.patternTypeFilter())),
                new AccessControlEntryFilter(
                        request.principalFilter(),
                        request.hostFilter(),
                        AclOperation.fromCode(request.operation()),
                        AclPermissionType.fromCode(request.permissionType())));
        if (filter.isUnknown()) {
            return done(response, Errors.INVALID_REQUEST, "The filter contains UNKNOWN elements: " + filter);
        }
        Map<ResourcePattern, DescribeAclsResource> byPattern = new LinkedHashMap<>();
        for (AclEntry e : authorizer.acls()) {
            AclBinding b = AclBindings.toBinding(e);
            if (!filter.matches(b)) {
                continue;
            }
            byPattern
                    .computeIfAbsent(
                            b.pattern(),
                            p -> new DescribeAclsResource()
                                    .setResourceType(p.resourceType().code())
                                    .setResourceName(p.name())
                                    .setPatternType(p.patternType().code()))
                    .acls()
                    .add(new AclDescription()
                            .setPrincipal(e.principal())
                            .setHost(e.host())
                            .setOperation(e.operation())
                            .setPermissionType(e.permissionType()));
        }
        response.resources().addAll(byPattern.values());
        return CompletableFuture.completedFuture(response);
    }

    private static CompletableFuture<ApiMessage> done(DescribeAclsResponseData response, Errors error, String message) {
        return CompletableFuture.completedFuture(
                response.setErrorCode(error.code()).setErrorMessage(message));
    }
}
