package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.broker.topic.TopicManager;
import io.sluice.cluster.controller.ElectionResult;
import io.sluice.cluster.controller.ElectionType;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.PartitionRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.message.ElectLeadersRequestData;
import org.apache.kafka.common.message.ElectLeadersResponseData;
import org.apache.kafka.common.message.ElectLeadersResponseData.PartitionResult;
import org.apache.kafka.common.message.ElectLeadersResponseData.ReplicaElectionResult;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * ElectLeaders ({@code kafka-leader-election.sh}): a preferred or unclean election for the partitions named, or for
 * every partition when the list is null, decided by the controller. Kafka's clients send it to the controller; on
 * another broker the answer is NOT_CONTROLLER. v0 has no election type and means preferred.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class ElectLeadersHandler implements ApiHandler<ElectLeadersRequestData> {
    private final Supplier<ClusterNode> node;
    private final TopicManager topics;

    public ElectLeadersHandler(Supplier<ClusterNode> node, TopicManager topics) {
        this.node = node;
        this.topics = topics;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, ElectLeadersRequestData request) {
        ClusterNode n = node.get();
        if (n == null || !n.isController()) {
            return CompletableFuture.completedFuture(
                    new ElectLeadersResponseData().setErrorCode(Errors.NOT_CONTROLLER.code()));
        }
        ElectionType type;
        try {
            type = context.apiVersion() == 0 ? ElectionType.PREFERRED : ElectionType.of(request.electionType());
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(
                    new ElectLeadersResponseData().setErrorCode(Errors.INVALID_REQUEST.code()));
        }
        List<PartitionRef> refs = new ArrayList<>();
        if (request.topicPartitions() == null) {
            for (TopicInfo topic : topics.topics()) {
                for (int p = 0; p < topic.partitionCount(); p++) {
                    refs.add(new PartitionRef(topic.name(), p));
                }
            }
        } else {
            for (ElectLeadersRequestData.TopicPartitions tp : request.topicPartitions()) {
                for (int p : tp.partitions()) {
                    refs.add(new PartitionRef(tp.topic(), p));
                }
            }
        }
        boolean all = request.topicPartitions() == null;
        return n.electLeaders(refs, type).handle((results, failure) -> {
            if (failure != null) {
                return new ElectLeadersResponseData().setErrorCode(Errors.NOT_CONTROLLER.code());
            }
            return respond(results, all);
        });
    }

    /** Kafka leaves partitions that needed no election out of the answer to an election of every partition. */
    private static ApiMessage respond(List<ElectionResult> results, boolean all) {
        Map<String, ReplicaElectionResult> byTopic = new LinkedHashMap<>();
        for (ElectionResult r : results) {
            if (all && r.error() == io.sluice.cluster.controller.ReplicationError.ELECTION_NOT_NEEDED) {
                continue;
            }
            byTopic.computeIfAbsent(r.partition().topic(), t -> new ReplicaElectionResult().setTopic(t))
                    .partitionResult()
                    .add(new PartitionResult()
                            .setPartitionId(r.partition().partition())
                            .setErrorCode(r.error().kafkaCode())
                            .setErrorMessage(r.message()));
        }
        return new ElectLeadersResponseData()
                .setErrorCode(Errors.NONE.code())
                .setReplicaElectionResults(new ArrayList<>(byTopic.values()));
    }
}
