package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData.OffsetFetchRequestGroup;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.message.OffsetFetchResponseData.OffsetFetchResponseGroup;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Kafka's ACL checks on OffsetFetch: Describe on each group (GROUP_AUTHORIZATION_FAILED) and Describe on each topic:
 * a topic asked for by name answers TOPIC_AUTHORIZATION_FAILED for its partitions, and a fetch of all committed
 * offsets leaves it out. Single-group versions (0-7) are refused whole; batched ones (8+) per group.
 *
 * <p>Stateless; thread-safe.
 */
final class OffsetFetchAccess {
    private static final short FIRST_BATCHED_VERSION = 8;
    private static final long NO_OFFSET = -1;

    private OffsetFetchAccess() {}

    static ApiHandler<OffsetFetchRequestData> wrap(ApiHandler<OffsetFetchRequestData> handler) {
        return (ctx, req) -> {
            if (ctx.apiVersion() < FIRST_BATCHED_VERSION) {
                if (!GroupAccess.mayUseGroup(ctx, AclOperation.DESCRIBE, req.groupId())) {
                    return CompletableFuture.completedFuture(GroupAccess.groupRefusal(ctx, req, req.groupId()));
                }
                return handler.handle(ctx, req)
                        .thenApply(answer -> filterSingle(ctx, req.topics() == null, (OffsetFetchResponseData) answer));
            }
            return handler.handle(ctx, req)
                    .thenApply(answer -> filterBatched(ctx, req, (OffsetFetchResponseData) answer));
        };
    }

    private static ApiMessage filterSingle(RequestContext ctx, boolean allTopics, OffsetFetchResponseData answer) {
        if (allTopics) {
            answer.topics().removeIf(t -> !mayDescribe(ctx, t.name()));
            return answer;
        }
        for (OffsetFetchResponseData.OffsetFetchResponseTopic t : answer.topics()) {
            if (!mayDescribe(ctx, t.name())) {
                for (OffsetFetchResponseData.OffsetFetchResponsePartition p : t.partitions()) {
                    p.setCommittedOffset(NO_OFFSET)
                            .setMetadata("")
                            .setCommittedLeaderEpoch(-1)
                            .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code());
                }
            }
        }
        return answer;
    }

    private static ApiMessage filterBatched(
            RequestContext ctx, OffsetFetchRequestData req, OffsetFetchResponseData answer) {
        for (OffsetFetchResponseGroup g : answer.groups()) {
            if (!GroupAccess.mayUseGroup(ctx, AclOperation.DESCRIBE, g.groupId())) {
                g.topics().clear();
                g.setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code());
                continue;
            }
            OffsetFetchRequestGroup asked = null;
            for (OffsetFetchRequestGroup r : req.groups()) {
                if (r.groupId().equals(g.groupId())) {
                    asked = r;
                }
            }
            if (asked == null || asked.topics() == null) {
                g.topics().removeIf(t -> !mayDescribe(ctx, t.name()));
                continue;
            }
            for (OffsetFetchResponseData.OffsetFetchResponseTopics t : g.topics()) {
                if (!mayDescribe(ctx, t.name())) {
                    for (OffsetFetchResponseData.OffsetFetchResponsePartitions p : t.partitions()) {
                        p.setCommittedOffset(NO_OFFSET)
                                .setMetadata("")
                                .setCommittedLeaderEpoch(-1)
                                .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code());
                    }
                }
            }
        }
        return answer;
    }

    private static boolean mayDescribe(RequestContext ctx, String topic) {
        return ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic);
    }
}
