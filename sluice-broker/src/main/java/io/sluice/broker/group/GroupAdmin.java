package io.sluice.broker.group;

import io.sluice.broker.group.store.GroupRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin side of the coordinator: ListGroups, DescribeGroups and DeleteGroups over the groups this broker
 * serves now (a group of a partition it does not serve is answered with the error {@link GroupLoader} gives).
 * Thread-safe: every group is touched only under its lock.
 */
final class GroupAdmin {
    private static final Logger LOG = LoggerFactory.getLogger(GroupAdmin.class);
    /** ListGroups v4 and later can filter by state. */
    private static final short LIST_GROUPS_STATES_FILTER_VERSION = 4;
    /** ListGroups v5 and later can filter by type. */
    private static final short LIST_GROUPS_TYPES_FILTER_VERSION = 5;

    private final CoordinatorRuntime rt;
    private final GroupLoader loader;

    GroupAdmin(CoordinatorRuntime rt, GroupLoader loader) {
        this.rt = rt;
        this.loader = loader;
    }

    ListGroupsResponseData listGroups(ListGroupsRequestData request, short apiVersion) {
        Set<String> states = apiVersion >= LIST_GROUPS_STATES_FILTER_VERSION && request.statesFilter() != null
                ? request.statesFilter().stream()
                        .map(s -> s.toLowerCase(Locale.ROOT))
                        .collect(Collectors.toSet())
                : Set.of();
        Set<String> types = apiVersion >= LIST_GROUPS_TYPES_FILTER_VERSION && request.typesFilter() != null
                ? request.typesFilter().stream()
                        .map(s -> s.toLowerCase(Locale.ROOT))
                        .collect(Collectors.toSet())
                : Set.of();
        // Kafka lists what it has and says COORDINATOR_LOAD_IN_PROGRESS while a partition loads; the client retries.
        ListGroupsResponseData response = new ListGroupsResponseData()
                .setErrorCode((loader.anyLoading() ? Errors.COORDINATOR_LOAD_IN_PROGRESS : Errors.NONE).code());
        if (!types.isEmpty() && !types.contains(GroupCoordinator.CLASSIC_GROUP_TYPE)) {
            return response;
        }
        for (ClassicGroup group : rt.groups.values()) {
            if (loader.errorForGroup(group.groupId) != Errors.NONE) {
                continue;
            }
            group.lock.lock();
            try {
                if (group.is(GroupState.DEAD)
                        || (!states.isEmpty()
                                && !states.contains(group.state.kafkaName().toLowerCase(Locale.ROOT)))) {
                    continue;
                }
                response.groups()
                        .add(new ListGroupsResponseData.ListedGroup()
                                .setGroupId(group.groupId)
                                .setProtocolType(group.protocolType == null ? "" : group.protocolType)
                                .setGroupState(group.state.kafkaName())
                                .setGroupType(GroupCoordinator.CLASSIC_GROUP_TYPE));
            } finally {
                group.lock.unlock();
            }
        }
        return response;
    }

    /** Every served group's committed offsets (Dead groups left out), groups and partitions in name order. */
    List<GroupOffsets> servedGroupOffsets() {
        List<GroupOffsets> out = new ArrayList<>();
        for (ClassicGroup group : rt.groups.values()) {
            if (loader.errorForGroup(group.groupId) != Errors.NONE) {
                continue;
            }
            group.lock.lock();
            try {
                if (group.is(GroupState.DEAD)) {
                    continue;
                }
                List<GroupOffsets.Committed> committed = new ArrayList<>(group.offsets.size());
                group.offsets.forEach((tp, offset) ->
                        committed.add(new GroupOffsets.Committed(tp.topic(), tp.partition(), offset.offset())));
                committed.sort(Comparator.comparing(GroupOffsets.Committed::topic)
                        .thenComparingInt(GroupOffsets.Committed::partition));
                out.add(new GroupOffsets(group.groupId, group.state.kafkaName(), group.members.size(), committed));
            } finally {
                group.lock.unlock();
            }
        }
        out.sort(Comparator.comparing(GroupOffsets::groupId));
        return out;
    }

    DescribeGroupsResponseData.DescribedGroup describe(String groupId) {
        DescribeGroupsResponseData.DescribedGroup out = new DescribeGroupsResponseData.DescribedGroup()
                .setGroupId(groupId)
                .setErrorCode(Errors.NONE.code())
                .setGroupState(GroupState.DEAD.kafkaName())
                .setProtocolType("")
                .setProtocolData("");
        if (groupId == null) {
            return out.setErrorCode(Errors.INVALID_GROUP_ID.code());
        }
        Errors notServed = loader.errorForGroup(groupId);
        if (notServed != Errors.NONE) {
            return out.setErrorCode(notServed.code());
        }
        ClassicGroup group = rt.groups.get(groupId);
        if (group == null) {
            return out;
        }
        group.lock.lock();
        try {
            boolean stable = group.is(GroupState.STABLE);
            out.setGroupState(group.state.kafkaName())
                    .setProtocolType(group.protocolType == null ? "" : group.protocolType)
                    .setProtocolData(stable && group.protocolName != null ? group.protocolName : "");
            for (GroupMember m : group.members.values()) {
                out.members()
                        .add(new DescribeGroupsResponseData.DescribedGroupMember()
                                .setMemberId(m.memberId)
                                .setGroupInstanceId(m.groupInstanceId)
                                .setClientId(m.clientId)
                                .setClientHost(m.clientHost)
                                .setMemberMetadata(stable ? m.metadataFor(group.protocolName) : new byte[0])
                                .setMemberAssignment(stable ? m.assignment : new byte[0]));
            }
            return out;
        } finally {
            group.lock.unlock();
        }
    }

    /** Kafka's group deletion: an empty group is dead at once, answered once its tombstones are durable. */
    CompletableFuture<Errors> deleteGroup(String groupId) {
        if (groupId == null) {
            return CompletableFuture.completedFuture(Errors.INVALID_GROUP_ID);
        }
        Errors notServed = loader.errorForGroup(groupId);
        if (notServed != Errors.NONE) {
            return CompletableFuture.completedFuture(notServed);
        }
        ClassicGroup group = rt.groups.get(groupId);
        if (group == null) {
            return CompletableFuture.completedFuture(Errors.GROUP_ID_NOT_FOUND);
        }
        group.lock.lock();
        try {
            if (group.is(GroupState.DEAD)) {
                return CompletableFuture.completedFuture(Errors.GROUP_ID_NOT_FOUND);
            }
            if (!group.is(GroupState.EMPTY)) {
                return CompletableFuture.completedFuture(Errors.NON_EMPTY_GROUP);
            }
            List<GroupRecord> tombstones = new ArrayList<>();
            for (TopicPartition tp : group.offsets.keySet()) {
                tombstones.add(new GroupRecord.OffsetTombstone(groupId, tp.topic(), tp.partition()));
            }
            tombstones.add(new GroupRecord.GroupTombstone(groupId));
            CompletableFuture<Void> durable;
            try {
                durable = rt.store.append(groupId, tombstones);
            } catch (IOException | RuntimeException e) {
                LOG.error("Group {}: cannot store its deletion: {}", groupId, e.toString());
                return CompletableFuture.completedFuture(CoordinatorRuntime.groupWriteError(e));
            }
            group.offsets.clear();
            group.transitionTo(GroupState.DEAD, rt.now());
            rt.groups.remove(groupId, group);
            LOG.info("Group {}: deleted", groupId);
            return durable.handle(
                    (ok, failure) -> failure == null ? Errors.NONE : CoordinatorRuntime.groupWriteError(failure));
        } finally {
            group.lock.unlock();
        }
    }
}
