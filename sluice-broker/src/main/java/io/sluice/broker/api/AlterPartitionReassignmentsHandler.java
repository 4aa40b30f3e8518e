package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.reassign.ReassignmentRoomCheck;
import io.sluice.cluster.controller.ReassignmentResult;
import io.sluice.cluster.controller.ReplicationError;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData.ReassignablePartition;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData.ReassignableTopic;
import org.apache.kafka.common.message.AlterPartitionReassignmentsResponseData;
import org.apache.kafka.common.message.AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse;
import org.apache.kafka.common.message.AlterPartitionReassignmentsResponseData.ReassignableTopicResponse;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * AlterPartitionReassignments (KIP-455; {@code kafka-reassign-partitions.sh --execute} and {@code --cancel}): a target
 * replica set per partition, or null to cancel, decided by the controller in one delta. Kafka's clients send it to
 * the controller; on another broker the whole request answers NOT_CONTROLLER. A partition named twice is refused
 * with INVALID_REQUEST. A whole-request error is also set on every partition named, as Kafka's error response does:
 * Kafka's admin client reads a top-level error other than NOT_CONTROLLER per partition, and answers "the server
 * returned too less results" when the response names none. Before the controller sees it, the {@link ReassignmentRoomCheck} refuses
 * (INVALID_REPLICA_ASSIGNMENT, with the reason) each move whose new broker lacks the room; the others go ahead.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class AlterPartitionReassignmentsHandler implements ApiHandler<AlterPartitionReassignmentsRequestData> {
    private final Supplier<ClusterNode> node;
    private final ReassignmentRoomCheck roomCheck;

    public AlterPartitionReassignmentsHandler(Supplier<ClusterNode> node, ReassignmentRoomCheck roomCheck) {
        this.node = node;
        this.roomCheck = roomCheck;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(
            RequestContext context, AlterPartitionReassignmentsRequestData request) {
        ClusterNode n = node.get();
        if (n == null || !n.isController()) {
            return CompletableFuture.completedFuture(failed(request, Errors.NOT_CONTROLLER, null));
        }
        Map<PartitionRef, int[]> targets = new LinkedHashMap<>();
        for (ReassignableTopic topic : request.topics()) {
            for (ReassignablePartition p : topic.partitions()) {
                PartitionRef ref = new PartitionRef(topic.name(), p.partitionIndex());
                int[] target = p.replicas() == null
                        ? null
                        : p.replicas().stream().mapToInt(Integer::intValue).toArray();
                if (targets.containsKey(ref)) {
                    return CompletableFuture.completedFuture(
                            failed(request, Errors.INVALID_REQUEST, "partition " + ref + " is named more than once"));
                }
                targets.put(ref, target);
            }
        }
        ClusterState state = n.controllerState();
        if (state == null) {
            return CompletableFuture.completedFuture(failed(request, Errors.NOT_CONTROLLER, null));
        }
        return roomCheck
                .refusals(state, targets)
                .thenCompose(refused -> {
                    Map<PartitionRef, int[]> accepted = new LinkedHashMap<>(targets);
                    accepted.keySet().removeAll(refused.keySet());
                    return n.alterPartitionReassignments(accepted)
                            .thenApply(results -> merge(targets, refused, results));
                })
                .handle((results, failure) ->
                        failure != null ? failed(request, Errors.NOT_CONTROLLER, null) : respond(results));
    }

    /** The controller's results and the refusals, in request order. */
    private static List<ReassignmentResult> merge(
            Map<PartitionRef, int[]> targets, Map<PartitionRef, String> refused, List<ReassignmentResult> decided) {
        Map<PartitionRef, ReassignmentResult> byPartition = new LinkedHashMap<>();
        for (ReassignmentResult r : decided) {
            byPartition.put(r.partition(), r);
        }
        List<ReassignmentResult> ordered = new ArrayList<>(targets.size());
        for (PartitionRef ref : targets.keySet()) {
            String reason = refused.get(ref);
            ordered.add(
                    reason != null
                            ? new ReassignmentResult(ref, ReplicationError.INVALID_REPLICA_ASSIGNMENT, reason)
                            : byPartition.get(ref));
        }
        return ordered;
    }

    private static ApiMessage respond(List<ReassignmentResult> results) {
        Map<String, ReassignableTopicResponse> byTopic = new LinkedHashMap<>();
        for (ReassignmentResult r : results) {
            byTopic.computeIfAbsent(r.partition().topic(), t -> new ReassignableTopicResponse().setName(t))
                    .partitions()
                    .add(new ReassignablePartitionResponse()
                            .setPartitionIndex(r.partition().partition())
                            .setErrorCode(r.error().kafkaCode())
                            .setErrorMessage(r.message()));
        }
        return new AlterPartitionReassignmentsResponseData()
                .setErrorCode(Errors.NONE.code())
                .setResponses(new ArrayList<>(byTopic.values()));
    }

    /** {@code error} for the whole request and for each partition it names, in request order. */
    private static AlterPartitionReassignmentsResponseData failed(
            AlterPartitionReassignmentsRequestData request, Errors error, String message) {
        String why = message != null ? message : error.message();
        List<ReassignableTopicResponse> topics =
                new ArrayList<>(request.topics().size());
        for (ReassignableTopic topic : request.topics()) {
            ReassignableTopicResponse answer = new ReassignableTopicResponse().setName(topic.name());
            for (ReassignablePartition p : topic.partitions()) {
                answer.partitions()
                        .add(new ReassignablePartitionResponse()
                                .setPartitionIndex(p.partitionIndex())
                                .setErrorCode(error.code())
                                .setErrorMessage(why));
            }
            topics.add(answer);
        }
        return new AlterPartitionReassignmentsResponseData()
                .setErrorCode(error.code())
                .setErrorMessage(why)
                .setResponses(topics);
    }
}
