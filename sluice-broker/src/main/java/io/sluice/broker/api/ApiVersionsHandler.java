package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.ApiRegistry;
import io.sluice.broker.network.RequestContext;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;

/**
 * ApiVersions: the exact version ranges of the APIs this broker implements. Unsupported versions of
 * ApiVersions itself are answered before parsing (see the request channel handler).
 * <p>Features (KIP-584, v3+; what {@code Admin.describeFeatures} and {@code kafka-features.sh describe} show): as a
 * Kafka 3.9 broker in ZooKeeper mode, {@code metadata.version} is supported and nothing is finalized (the finalized
 * set is empty at epoch 0). The range is the one level Sluice implements, 3.9-IV0 (21): its protocol and inter-broker
 * behaviour are Kafka 3.9's and it has no older mode to fall back to. Kafka's {@code kraft.version} is not listed
 * (Sluice has no Raft quorum), nor are features whose only level Sluice has is 0 ({@code group.version},
 * {@code transaction.version}), which Kafka 3.9 does not list either.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class ApiVersionsHandler implements ApiHandler<ApiVersionsRequestData> {
    /** Kafka's metadata.version feature and the level of 3.9-IV0, the only one Sluice implements. */
    static final String METADATA_VERSION = "metadata.version";

    static final short METADATA_VERSION_3_9_IV0 = 21;
    private static final short FIRST_VERSION_WITH_FEATURES = 3;

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
        if (context.apiVersion() >= FIRST_VERSION_WITH_FEATURES) {
            ApiVersionsResponseData.SupportedFeatureKeyCollection supported =
                    new ApiVersionsResponseData.SupportedFeatureKeyCollection();
            supported.add(new ApiVersionsResponseData.SupportedFeatureKey()
                    .setName(METADATA_VERSION)
                    .setMinVersion(METADATA_VERSION_3_9_IV0)
                    .setMaxVersion(METADATA_VERSION_3_9_IV0));
            response.setSupportedFeatures(supported).setFinalizedFeaturesEpoch(0);
        }
        return CompletableFuture.completedFuture(response);
    }
}
