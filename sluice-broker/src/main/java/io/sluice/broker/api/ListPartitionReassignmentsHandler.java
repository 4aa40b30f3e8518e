package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData.ListPartitionReassignmentsTopics;
import org.apache.kafka.common.message.ListPartitionReassignmentsResponseData;
import org.apache.kafka.common.message.ListPartitionReassignmentsResponseData.OngoingPartitionReassignment;
import org.apache.kafka.common.message.ListPartitionReassignmentsResponseData.OngoingTopicReassignment;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * ListPartitionReassignments ({@code kafka-reassign-partitions.sh --list} and {@code --verify}): the partitions under
 * reassignment with their replicas, adding and removing replicas, from the state the controller published; every
 * partition when the topic list is null, else those named (unknown ones are left out, as Kafka does). Answered by
 * the controller only (NOT_CONTROLLER elsewhere), which has the newest state.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class ListPartitionReassignmentsHandler implements ApiHandler<ListPartitionReassignmentsRequestData> {
    private final Supplier<ClusterNode> node;

    public ListPartitionReassignmentsHandler(Supplier<ClusterNode> node) {
        this.node = node;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, ListPartitionReassignmentsRequestData request) {
        ClusterNode n = node.get();
        ClusterState state = n == null ? null : n.controllerState();
        if (state == null) {
            return CompletableFuture.completedFuture(new ListPartitionReassignmentsResponseData()
                    .setErrorCode(Errors.NOT_CONTROLLER.code())
                    .setErrorMessage(Errors.NOT_CONTROLLER.message()));
        }
        List<OngoingTopicReassignment> topics = new ArrayList<>();
        if (request.topics() == null) {
            for (TopicState topic : state.topicsById().values()) {
                addOngoing(topic, null, topics);
            }
        } else {
            for (ListPartitionReassignmentsTopics named : request.topics()) {
                TopicState topic = state.topic(named.name());
                if (topic != null) {
                    addOngoing(topic, named.partitionIndexes(), topics);
                }
            }
        }
        return CompletableFuture.completedFuture(new ListPartitionReassignmentsResponseData()
                .setErrorCode(Errors.NONE.code())
                .setTopics(topics));
    }

    private static void addOngoing(TopicState topic, List<Integer> partitions, List<OngoingTopicReassignment> out) {
        OngoingTopicReassignment ongoing = new OngoingTopicReassignment().setName(topic.name());
        if (partitions == null) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                addIfMoving(topic, p, ongoing);
            }
        } else {
            for (int p : partitions) {
                if (p >= 0 && p < topic.partitionCount()) {
                    addIfMoving(topic, p, ongoing);
                }
            }
        }
        if (!ongoing.partitions().isEmpty()) {
            out.add(ongoing);
        }
    }

    private static void addIfMoving(TopicState topic, int p, OngoingTopicReassignment ongoing) {
        PartitionState ps = topic.partition(p);
        if (ps.isReassigning()) {
            ongoing.partitions()
                    .add(new OngoingPartitionReassignment()
                            .setPartitionIndex(p)
                            .setReplicas(boxed(ps.replicas()))
                            .setAddingReplicas(boxed(ps.addingReplicas()))
                            .setRemovingReplicas(boxed(ps.removingReplicas())));
        }
    }

    private static List<Integer> boxed(int[] ids) {
        List<Integer> out = new ArrayList<>(ids.length);
        for (int id : ids) {
            out.add(id);
        }
        return out;
    }
}
