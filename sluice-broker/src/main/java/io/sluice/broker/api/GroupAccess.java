package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.security.acl.ClusterGate;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.message.DeleteGroupsResponseData.DeletableGroupResult;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData.OffsetCommitRequestPartition;
import org.apache.kafka.common.message.OffsetCommitRequestData.OffsetCommitRequestTopic;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetCommitResponseData.OffsetCommitResponsePartition;
import org.apache.kafka.common.message.OffsetCommitResponseData.OffsetCommitResponseTopic;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteRequestData.OffsetDeleteRequestPartition;
import org.apache.kafka.common.message.OffsetDeleteRequestData.OffsetDeleteRequestTopic;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.message.OffsetDeleteResponseData.OffsetDeleteResponsePartition;
import org.apache.kafka.common.message.OffsetDeleteResponseData.OffsetDeleteResponseTopic;
import org.apache.kafka.common.message.OffsetDeleteResponseData.OffsetDeleteResponseTopicCollection;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Kafka's ACL checks on the consumer-group APIs, around the group coordinator (which knows nothing of principals):
 * the group's operation (Read to join, sync, heartbeat, leave and commit offsets; Describe to describe; Delete to
 * delete the group or its offsets) or GROUP_AUTHORIZATION_FAILED; Read on each topic whose offsets are committed or
 * deleted, or TOPIC_AUTHORIZATION_FAILED for its partitions; ListGroups shows only the groups the principal may describe (all with Describe on the cluster).
 * OffsetFetch is checked by {@link OffsetFetchAccess}.
 *
 * <p>Stateless; thread-safe.
 */
final class GroupAccess {
    private GroupAccess() {}

    /** A single-group API: the whole request is refused without {@code operation} on the group it names. */
    static <R extends ApiMessage> ApiHandler<R> requireGroup(
            AclOperation operation, Function<R, String> groupOf, ApiHandler<R> handler) {
        return (ctx, req) -> mayUseGroup(ctx, operation, groupOf.apply(req))
                ? handler.handle(ctx, req)
                : CompletableFuture.completedFuture(groupRefusal(ctx, req, groupOf.apply(req)));
    }

    static boolean mayUseGroup(RequestContext ctx, AclOperation operation, String group) {
        return ctx.authorize(operation, ResourceType.GROUP, group);
    }

    static ApiMessage groupRefusal(RequestContext ctx, ApiMessage request, String group) {
        return ClusterGate.refusal(
                ctx, request, new GroupAuthorizationException("Not authorized to access group " + group));
    }

    /** OffsetCommit: Read on the group, then Read on each topic; refused topics answer without reaching the group. */
    static ApiHandler<OffsetCommitRequestData> offsetCommit(ApiHandler<OffsetCommitRequestData> handler) {
        return requireGroup(AclOperation.READ, OffsetCommitRequestData::groupId, (ctx, req) -> {
            OffsetCommitRequestData allowed = req.duplicate();
            allowed.topics().removeIf(t -> !ctx.authorize(AclOperation.READ, ResourceType.TOPIC, t.name()));
            OffsetCommitResponseData refused = new OffsetCommitResponseData();
            for (OffsetCommitRequestTopic t : req.topics()) {
                if (ctx.authorize(AclOperation.READ, ResourceType.TOPIC, t.name())) {
                    continue;
                }
                OffsetCommitResponseTopic topic = new OffsetCommitResponseTopic().setName(t.name());
                for (OffsetCommitRequestPartition p : t.partitions()) {
                    topic.partitions()
                            .add(new OffsetCommitResponsePartition()
                                    .setPartitionIndex(p.partitionIndex())
                                    .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()));
                }
                refused.topics().add(topic);
            }
            if (allowed.topics().isEmpty() && !req.topics().isEmpty()) {
                return CompletableFuture.completedFuture(refused);
            }
            return handler.handle(ctx, allowed).thenApply(answer -> {
                ((OffsetCommitResponseData) answer).topics().addAll(refused.topics());
                return answer;
            });
        });
    }

    /** OffsetDelete: Delete on the group, then Read on each topic; refused topics answer without reaching the group. */
    static ApiHandler<OffsetDeleteRequestData> offsetDelete(ApiHandler<OffsetDeleteRequestData> handler) {
        return requireGroup(AclOperation.DELETE, OffsetDeleteRequestData::groupId, (ctx, req) -> {
            OffsetDeleteRequestData allowed = req.duplicate();
            allowed.topics().removeIf(t -> !ctx.authorize(AclOperation.READ, ResourceType.TOPIC, t.name()));
            OffsetDeleteResponseTopicCollection refused = new OffsetDeleteResponseTopicCollection();
            for (OffsetDeleteRequestTopic t : req.topics()) {
                if (!ctx.authorize(AclOperation.READ, ResourceType.TOPIC, t.name())) {
                    OffsetDeleteResponseTopic topic = new OffsetDeleteResponseTopic().setName(t.name());
                    for (OffsetDeleteRequestPartition p : t.partitions()) {
                        topic.partitions()
                                .add(new OffsetDeleteResponsePartition()
                                        .setPartitionIndex(p.partitionIndex())
                                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()));
                    }
                    refused.add(topic);
                }
            }
            CompletableFuture<ApiMessage> decided =
                    allowed.topics().isEmpty() && !req.topics().isEmpty()
                            ? CompletableFuture.completedFuture(new OffsetDeleteResponseData())
                            : handler.handle(ctx, allowed);
            return decided.thenApply(answer -> {
                for (OffsetDeleteResponseTopic t : refused) {
                    ((OffsetDeleteResponseData) answer).topics().add(t.duplicate());
                }
                return answer;
            });
        });
    }

    /** ListGroups: the groups the principal may describe, or all of them with Describe on the cluster. */
    static <R extends ApiMessage> ApiHandler<R> listGroups(ApiHandler<R> handler) {
        return (ctx, req) -> handler.handle(ctx, req).thenApply(answer -> {
            if (!ctx.authorizeCluster(AclOperation.DESCRIBE)) {
                ((ListGroupsResponseData) answer)
                        .groups()
                        .removeIf(g -> !mayUseGroup(ctx, AclOperation.DESCRIBE, g.groupId()));
            }
            return answer;
        });
    }

    /** DescribeGroups: a group the principal may not describe answers GROUP_AUTHORIZATION_FAILED and nothing else. */
    static <R extends ApiMessage> ApiHandler<R> describeGroups(ApiHandler<R> handler) {
        return (ctx, req) -> handler.handle(ctx, req).thenApply(answer -> {
            var groups = ((DescribeGroupsResponseData) answer).groups();
            for (int i = 0; i < groups.size(); i++) {
                DescribeGroupsResponseData.DescribedGroup g = groups.get(i);
                if (!mayUseGroup(ctx, AclOperation.DESCRIBE, g.groupId())) {
                    groups.set(
                            i,
                            new DescribeGroupsResponseData.DescribedGroup()
                                    .setGroupId(g.groupId())
                                    .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())
                                    .setGroupState("")
                                    .setProtocolType("")
                                    .setProtocolData("")
                                    .setAuthorizedOperations(g.authorizedOperations()));
                }
            }
            return answer;
        });
    }

    /** DeleteGroups: Delete on each group; refused ones never reach the coordinator. */
    static ApiHandler<DeleteGroupsRequestData> deleteGroups(ApiHandler<DeleteGroupsRequestData> handler) {
        return (ctx, req) -> {
            DeleteGroupsRequestData allowed = req.duplicate();
            allowed.groupsNames().removeIf(g -> !mayUseGroup(ctx, AclOperation.DELETE, g));
            CompletableFuture<ApiMessage> decided = allowed.groupsNames().isEmpty()
                    ? CompletableFuture.completedFuture(new DeleteGroupsResponseData())
                    : handler.handle(ctx, allowed);
            return decided.thenApply(answer -> {
                for (String g : req.groupsNames()) {
                    if (!mayUseGroup(ctx, AclOperation.DELETE, g)) {
                        ((DeleteGroupsResponseData) answer)
                                .results()
                                .add(new DeletableGroupResult()
                                        .setGroupId(g)
                                        .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code()));
                    }
                }
                return answer;
            });
        };
    }
}
