package io.sluice.broker.security.acl;

import io.sluice.broker.interbroker.ControllerChannel;
import io.sluice.broker.interbroker.ControllerWrites;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.node.ClusterNode;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.CreateAclsRequestData;
import org.apache.kafka.common.message.CreateAclsRequestData.AclCreation;
import org.apache.kafka.common.message.CreateAclsResponseData;
import org.apache.kafka.common.message.CreateAclsResponseData.AclCreationResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * CreateAcls ({@code kafka-acls.sh --add}, {@code Admin.createAcls}): needs Alter on the cluster
 * (CLUSTER_AUTHORIZATION_FAILED otherwise) and an authorizer (SECURITY_DISABLED otherwise); each creation is checked
 * as Kafka checks it (INVALID_REQUEST naming the bad field) and the valid ones are stored by the controller in one
 * delta ({@link ControllerWrites}). One result per creation, in request order.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class CreateAclsHandler implements ApiHandler<CreateAclsRequestData> {
    private final AclAuthorizer authorizer;
    private final ControllerWrites writes;

    public CreateAclsHandler(AclAuthorizer authorizer, Supplier<ClusterNode> node, ControllerChannel controller) {
        this.authorizer = authorizer;
        this.writes = new ControllerWrites(node, controller);
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, CreateAclsRequestData request) {
        Errors refused = authorizer.aclApiRefusal(context, AclOperation.ALTER);
        if (refused != null) {
            return CompletableFuture.completedFuture(failAll(request, refused, AclAuthorizer.refusalMessage(refused)));
        }
        short version = context.apiVersion();
        return writes.<CreateAclsResponseData>write(
                        n -> n.<CreateAclsResponseData>alterAcls((current, add, remove) -> {
                            CreateAclsResponseData response = new CreateAclsResponseData();
                            for (AclCreation c : request.creations()) {
                                AclCreationResult result = new AclCreationResult();
                                try {
                                    add.add(AclBindings.toEntry(binding(c)));
                                } catch (InvalidRequestException | IllegalArgumentException e) {
                                    result.setErrorCode(Errors.INVALID_REQUEST.code())
                                            .setErrorMessage(e.getMessage());
                                }
                                response.results().add(result);
                            }
                            return response;
                        }),
                        ApiKeys.CREATE_ACLS,
                        version,
                        request,
                        readable -> new CreateAclsResponseData(readable, version),
                        failure -> failAll(request, Errors.forException(failure), failure.getMessage()))
                .thenApply(response -> response);
    }

    private static AclBinding binding(AclCreation c) {
        return new AclBinding(
                new ResourcePattern(
                        ResourceType.fromCode(c.resourceType()),
                        c.resourceName(),
                        PatternType.fromCode(c.resourcePatternType())),
                new AccessControlEntry(
                        c.principal(),
                        c.host(),
                        AclOperation.fromCode(c.operation()),
                        AclPermissionType.fromCode(c.permissionType())));
    }

    private static CreateAclsResponseData failAll(CreateAclsRequestData request, Errors error, String message) {
        CreateAclsResponseData response = new CreateAclsResponseData();
        for (int i = 0; i < request.creations().size(); i++) {
            response.results()
                    .add(new AclCreationResult().setErrorCode(error.code()).setErrorMessage(message));
        }
        return response;
    }
}
