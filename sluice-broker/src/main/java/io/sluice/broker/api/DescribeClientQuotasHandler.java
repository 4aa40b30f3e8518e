package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData.ComponentData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * DescribeClientQuotas v0-1 while Sluice stores no client quotas: the filter is checked as Kafka 3.9 checks it
 * (DescribeConfigs on the cluster, else CLUSTER_AUTHORIZATION_FAILED; an unknown match type, an exact match without a
 * name, an empty or repeated entity type INVALID_REQUEST; another entity type UNSUPPORTED_VERSION) and the answer
 * lists the quotas there are: none. {@code kafka-configs.sh --entity-type users --describe} asks for them before it
 * shows a user's SCRAM credentials. When client quotas are stored, this handler answers from them instead.
 *
 * <p>Stateless; thread-safe.
 */
public final class DescribeClientQuotasHandler implements ApiHandler<DescribeClientQuotasRequestData> {
    private static final byte MATCH_EXACT = 0;
    private static final byte MATCH_ANY = 2;
    private static final List<String> ENTITY_TYPES = List.of("user", "client-id", "ip");

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, DescribeClientQuotasRequestData request) {
        DescribeClientQuotasResponseData response = new DescribeClientQuotasResponseData();
        if (!context.authorizeCluster(AclOperation.DESCRIBE_CONFIGS)) {
            return CompletableFuture.completedFuture(response.setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code())
                    .setErrorMessage(Errors.CLUSTER_AUTHORIZATION_FAILED.message()).setEntries(null));
        }
        Set<String> seen = new HashSet<>();
        for (ComponentData c : request.components()) {
            String problem = null;
            Errors error = Errors.INVALID_REQUEST;
            if (c.matchType() < MATCH_EXACT || c.matchType() > MATCH_ANY) {
                problem = "Unexpected match type " + c.matchType();
            } else if (c.matchType() == MATCH_EXACT && c.match() == null) {
                problem = "Exact match of entity type " + c.entityType() + " without a name";
            } else if (c.entityType().isEmpty()) {
                problem = "Unexpected empty filter component entity type";
            } else if (!ENTITY_TYPES.contains(c.entityType())) {
                error = Errors.UNSUPPORTED_VERSION;
                problem = "Custom entity type '" + c.entityType() + "' not supported";
            } else if (!seen.add(c.entityType())) {
                problem = "Duplicate " + c.entityType() + " filter component entity type";
            }
            if (problem != null) {
                return CompletableFuture.completedFuture(response.setErrorCode(error.code()).setErrorMessage(problem)
                        .setEntries(null));
            }
        }
        return CompletableFuture.completedFuture(response);
    }
}
