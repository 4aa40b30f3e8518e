package io.sluice.broker.api;

import io.sluice.broker.cluster.ClusterView;
import io.sluice.broker.group.GroupCoordinator;
import io.sluice.broker.network.ApiRegistry;
import io.sluice.broker.topic.OffsetsTopic;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;

/**
 * Registers the classic consumer-group APIs, all answered by the group coordinator, with the
 * version ranges it implements, each behind Kafka's ACL checks ({@link GroupAccess}, {@link OffsetFetchAccess}).
 *
 * <p>Stateless.
 */
public final class GroupApis {
    private GroupApis() {}

    public static void register(
            ApiRegistry registry, ClusterView cluster, OffsetsTopic offsetsTopic, GroupCoordinator groups) {
        registry.register(
                        ApiKeys.FIND_COORDINATOR,
                        0,
                        6,
                        new FindCoordinatorHandler(cluster, offsetsTopic, groups::partitionFor))
                .<JoinGroupRequestData>register(
                        ApiKeys.JOIN_GROUP,
                        0,
                        9,
                        GroupAccess.requireGroup(
                                AclOperation.READ,
                                JoinGroupRequestData::groupId,
                                (ctx, req) -> groups.handleJoinGroup(
                                                req, ctx.apiVersion(), ctx.clientId(), ctx.clientHost())
                                        .thenApply(ApiMessage.class::cast)))
                .<SyncGroupRequestData>register(
                        ApiKeys.SYNC_GROUP,
                        0,
                        5,
                        GroupAccess.requireGroup(
                                AclOperation.READ,
                                SyncGroupRequestData::groupId,
                                (ctx, req) -> groups.handleSyncGroup(
                                                req, ctx.apiVersion(), ctx.clientId(), ctx.clientHost())
                                        .thenApply(ApiMessage.class::cast)))
                .<HeartbeatRequestData>register(
                        ApiKeys.HEARTBEAT,
                        0,
                        4,
                        GroupAccess.requireGroup(
                                AclOperation.READ,
                                HeartbeatRequestData::groupId,
                                (ctx, req) -> groups.handleHeartbeat(
                                                req, ctx.apiVersion(), ctx.clientId(), ctx.clientHost())
                                        .thenApply(ApiMessage.class::cast)))
                .<LeaveGroupRequestData>register(
                        ApiKeys.LEAVE_GROUP,
                        0,
                        5,
                        GroupAccess.requireGroup(
                                AclOperation.READ,
                                LeaveGroupRequestData::groupId,
                                (ctx, req) -> groups.handleLeaveGroup(
                                                req, ctx.apiVersion(), ctx.clientId(), ctx.clientHost())
                                        .thenApply(ApiMessage.class::cast)))
                .<OffsetCommitRequestData>register(
                        ApiKeys.OFFSET_COMMIT,
                        0,
                        9,
                        GroupAccess.offsetCommit((ctx, req) -> groups.handleOffsetCommit(
                                        req, ctx.apiVersion(), ctx.clientId(), ctx.clientHost())
                                .thenApply(ApiMessage.class::cast)))
                .<OffsetFetchRequestData>register(
                        ApiKeys.OFFSET_FETCH,
                        0,
                        9,
                        OffsetFetchAccess.wrap((ctx, req) -> groups.handleOffsetFetch(
                                        req, ctx.apiVersion(), ctx.clientId(), ctx.clientHost())
                                .thenApply(ApiMessage.class::cast)))
                .<ListGroupsRequestData>register(
                        ApiKeys.LIST_GROUPS,
                        0,
                        5,
                        GroupAccess.listGroups((ctx, req) -> groups.handleListGroups(
                                        req, ctx.apiVersion(), ctx.clientId(), ctx.clientHost())
                                .thenApply(ApiMessage.class::cast)))
                .<DescribeGroupsRequestData>register(
                        ApiKeys.DESCRIBE_GROUPS,
                        0,
                        5,
                        GroupAccess.describeGroups((ctx, req) -> groups.handleDescribeGroups(
                                        req, ctx.apiVersion(), ctx.clientId(), ctx.clientHost())
                                .thenApply(ApiMessage.class::cast)))
                .<DeleteGroupsRequestData>register(
                        ApiKeys.DELETE_GROUPS,
                        0,
                        2,
                        GroupAccess.deleteGroups((ctx, req) -> groups.handleDeleteGroups(
                                        req, ctx.apiVersion(), ctx.clientId(), ctx.clientHost())
                                .thenApply(ApiMessage.class::cast)))
                .<OffsetDeleteRequestData>register(
                        ApiKeys.OFFSET_DELETE,
                        0,
                        0,
                        GroupAccess.offsetDelete((ctx, req) -> groups.handleOffsetDelete(
                                        req, ctx.apiVersion(), ctx.clientId(), ctx.clientHost())
                                .thenApply(ApiMessage.class::cast)));
    }
}
