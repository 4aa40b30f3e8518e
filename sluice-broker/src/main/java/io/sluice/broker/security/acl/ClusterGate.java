package io.sluice.broker.security.acl;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.requests.AbstractRequest;

/**
 * An API that Kafka allows only with one operation on the cluster (ClusterAction for broker-to-broker requests such
 * as AlterPartition and ControlledShutdown, Alter for reassignments and elections, Describe for listing
 * reassignments): without it the request is answered with kafka-clients' own error response for the API, every
 * element CLUSTER_AUTHORIZATION_FAILED, and the wrapped handler never runs.
 *
 * <p>Thread-safe when the wrapped handler is.
 */
public final class ClusterGate<R extends ApiMessage> implements ApiHandler<R> {
    private final AclOperation operation;
    private final ApiHandler<R> handler;

    private ClusterGate(AclOperation operation, ApiHandler<R> handler) {
        this.operation = operation;
        this.handler = handler;
    }

    /** {@code handler}, run only when the principal may perform {@code operation} on the cluster. */
    public static <R extends ApiMessage> ApiHandler<R> require(AclOperation operation, ApiHandler<R> handler) {
        return new ClusterGate<>(operation, handler);
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, R request) throws Exception {
        if (context.authorizeCluster(operation)) {
            return handler.handle(context, request);
        }
        return CompletableFuture.completedFuture(refusal(
                context,
                request,
                new ClusterAuthorizationException(context.apiKey() + " needs " + operation + " on the cluster, which "
                        + context.principal() + " lacks")));
    }

    /** The error response kafka-clients defines for {@code request}'s API, every element failed with {@code error}. */
    public static ApiMessage refusal(RequestContext context, ApiMessage request, RuntimeException error) {
        AbstractRequest parsed = AbstractRequest.parseRequest(
                        context.apiKey(), context.apiVersion(), MessageUtil.toByteBuffer(request, context.apiVersion()))
                .request;
        return parsed.getErrorResponse(0, error).data();
    }
}
