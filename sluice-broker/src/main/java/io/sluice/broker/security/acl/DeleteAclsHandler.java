package io.sluice.broker.security.acl;

import io.sluice.broker.interbroker.ControllerChannel;
import io.sluice.broker.interbroker.ControllerWrites;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.AclEntry;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.message.DeleteAclsRequestData;
import org.apache.kafka.common.message.DeleteAclsRequestData.DeleteAclsFilter;
import org.apache.kafka.common.message.DeleteAclsResponseData;
import org.apache.kafka.common.message.DeleteAclsResponseData.DeleteAclsFilterResult;
import org.apache.kafka.common.message.DeleteAclsResponseData.DeleteAclsMatchingAcl;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DeleteAcls ({@code kafka-acls.sh --remove}, {@code Admin.deleteAcls}): each filter removes the entries it matches
 * by Kafka's rules, decided on the controller against the published entries ({@link ControllerWrites}) and removed in one
 * delta; each filter's result lists what it removed. Needs Alter on the cluster (CLUSTER_AUTHORIZATION_FAILED) and an
 * authorizer (SECURITY_DISABLED); a filter with unknown elements is INVALID_REQUEST.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class DeleteAclsHandler implements ApiHandler<DeleteAclsRequestData> {
    private final AclAuthorizer authorizer;
    private final ControllerWrites writes;

    public DeleteAclsHandler(AclAuthorizer authorizer, Supplier<ClusterNode> node, ControllerChannel controller) {
        this.authorizer = authorizer;
        this.writes = new ControllerWrites(node, controller);
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, DeleteAclsRequestData request) {
        Errors refused = authorizer.aclApiRefusal(context, AclOperation.ALTER);
        if (refused != null) {
            return CompletableFuture.completedFuture(failAll(request, refused, AclAuthorizer.refusalMessage(refused)));
        }
        short version = context.apiVersion();
        return writes.<DeleteAclsResponseData>write(
                        n -> n.<DeleteAclsResponseData>alterAcls((current, add, remove) -> {
                            DeleteAclsResponseData response = new DeleteAclsResponseData();
                            Set<AclEntry> removed = new HashSet<>();
                            for (DeleteAclsFilter f : request.filters()) {
                                AclBindingFilter filter = filter(f);
                                DeleteAclsFilterResult result = new DeleteAclsFilterResult();
                                response.filterResults().add(result);
                                if (filter.isUnknown()) {
                                    result.setErrorCode(Errors.INVALID_REQUEST.code())
                                            .setErrorMessage("The filter contains UNKNOWN elements: " + filter);
                                    continue;
                                }
                                for (AclEntry e : current) {
                                    if (filter.matches(AclBindings.toBinding(e))) {
                                        result.matchingAcls().add(matching(e));
                                        if (removed.add(e)) {
                                            remove.add(e);
                                        }
                                    }
                                }
                            }
                            return response;
                        }),
                        ApiKeys.DELETE_ACLS,
                        version,
                        request,
                        readable -> new DeleteAclsResponseData(readable, version),
                        failure -> failAll(request, Errors.forException(failure), failure.getMessage()))
                .thenApply(response -> response);
    }

    private static AclBindingFilter filter(DeleteAclsFilter f) {
        return new AclBindingFilter(
                new ResourcePatternFilter(
                        ResourceType.fromCode(f.resourceTypeFilter()),
                        f.resourceNameFilter(),
                        PatternType.fromCode(f.patternTypeFilter())),
                new AccessControlEntryFilter(
                        f.principalFilter(),
                        f.hostFilter(),
                        AclOperation.fromCode(f.operation()),
                        AclPermissionType.fromCode(f.permissionType())));
    }

    private static DeleteAclsMatchingAcl matching(AclEntry e) {
        return new DeleteAclsMatchingAcl()
                .setResourceType(e.resourceType())
                .setResourceName(e.resourceName())
                .setPatternType(e.patternType())
                .setPrincipal(e.principal())
                .setHost(e.host())
                .setOperation(e.operation())
                .setPermissionType(e.permissionType());
    }

    private static DeleteAclsResponseData failAll(DeleteAclsRequestData request, Errors error, String message) {
        DeleteAclsResponseData response = new DeleteAclsResponseData();
        for (int i = 0; i < request.filters().size(); i++) {
            response.filterResults()
                    .add(new DeleteAclsFilterResult().setErrorCode(error.code()).setErrorMessage(message));
        }
        return response;
    }
}
