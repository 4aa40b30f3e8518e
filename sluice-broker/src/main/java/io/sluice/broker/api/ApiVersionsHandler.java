package io.sluice.broker.api;

import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.ApiRegistry;
import io.sluice.broker.network.RequestContext;

/**
 * ApiVersions: the exact version ranges of the APIs this broker implements. Unsupported versions of
 * ApiVersions itself are answered before parsing (see the request channel handler).
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class ApiVersionsHandler implements ApiHandler<ApiVersionsRequestData> {
    private final ApiRegistry registry;

    public ApiVersionsHandler(ApiRegistry registry) {
        this.registry = registry;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, ApiVersionsRequestData request) {
        ApiVersionsResponseData response = new ApiVersionsResponseData().setThrottleTimeMs(0);
        if (context.apiVersion() >= 3 && !new ApiVersionsRequest(request, context.apiVersion()).isValid()) {
            response.setErrorCode(Errors.INVALID_REQUEST.code());
        } else {
            response.setErrorCode(Errors.NONE.code());
        }
        response.setApiKeys(registry.advertisedVersions());
        return CompletableFuture.completedFuture(response);
    }
}
