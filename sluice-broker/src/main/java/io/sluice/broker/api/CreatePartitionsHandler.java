package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.ControllerAnswer;
import io.sluice.broker.topic.OffsetsTopic;
import io.sluice.broker.topic.TopicException;
import io.sluice.broker.topic.TopicManager;
import io.sluice.cluster.controller.CreatePartitionsResult;
import io.sluice.cluster.controller.PartitionIncrease;
import io.sluice.cluster.controller.ReplicationError;
import io.sluice.cluster.node.ClusterNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsAssignment;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * CreatePartitions ({@code kafka-topics.sh --alter --partitions}, {@code Admin.createPartitions}): each topic grows to
 * the count asked for, on the replicas given or placed by the controller, all accepted topics in one delta; with
 * validateOnly nothing changes. Kafka's clients send it to the controller; on another broker every topic answers
 * NOT_CONTROLLER. A topic named twice answers INVALID_REQUEST; the offsets topic's count is fixed
 * (offsets.topic.num.partitions), as Kafka's own tool refuses to change it. The answer comes once this broker has
 * applied the new partitions, so its next Metadata answer shows them.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class CreatePartitionsHandler implements ApiHandler<CreatePartitionsRequestData> {
    private final Supplier<ClusterNode> node;
    private final TopicManager topics;

    public CreatePartitionsHandler(Supplier<ClusterNode> node, TopicManager topics) {
        this.node = node;
        this.topics = topics;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, CreatePartitionsRequestData request) {
        CreatePartitionsResponseData response = new CreatePartitionsResponseData();
        Map<String, CreatePartitionsTopicResult> results = new HashMap<>();
        Set<String> duplicated = duplicates(request);
        ClusterNode n = node.get();
        List<PartitionIncrease> increases = new ArrayList<>();
        for (CreatePartitionsTopic topic : request.topics()) {
            if (results.containsKey(topic.name())) {
                continue;
            }
            CreatePartitionsTopicResult result = new CreatePartitionsTopicResult().setName(topic.name());
            results.put(topic.name(), result);
            response.results().add(result);
            if (duplicated.contains(topic.name())) {
                fail(result, Errors.INVALID_REQUEST, "Duplicate topic in request.");
            } else if (!context.authorize(AclOperation.ALTER, ResourceType.TOPIC, topic.name())) {
                fail(result, Errors.TOPIC_AUTHORIZATION_FAILED, "Authorization failed.");
            } else if (n == null || !n.isController()) {
                fail(result, Errors.NOT_CONTROLLER, "This is not the correct controller for this cluster.");
            } else if (OffsetsTopic.isInternal(topic.name())) {
                fail(
                        result,
                        Errors.INVALID_REQUEST,
                        "The number of partitions for the offsets topic cannot be " + "changed.");
            } else {
                try {
                    increases.add(new PartitionIncrease(topic.name(), topic.count(), assignments(topic)));
                } catch (TopicException e) {
                    fail(result, e.error(), e.getMessage());
                }
            }
        }
        if (!increases.isEmpty()) {
            decide(n, increases, request, results);
        }
        return CompletableFuture.completedFuture(response);
    }

    private void decide(
            ClusterNode n,
            List<PartitionIncrease> increases,
            CreatePartitionsRequestData request,
            Map<String, CreatePartitionsTopicResult> results) {
        // The controller and this broker's apply may take the configured wait at most, when the request's is longer.
        long maxWaitMs = topics.controllerWaitMs();
        long waitMs = request.timeoutMs() > 0 ? Math.min(request.timeoutMs(), maxWaitMs) : maxWaitMs;
        List<CreatePartitionsResult> decided;
        try {
            decided = ControllerAnswer.await(
                    n.createPartitions(increases, request.validateOnly()), "create partitions", waitMs);
        } catch (TopicException e) {
            for (PartitionIncrease increase : increases) {
                fail(results.get(increase.topic()), e.error(), e.getMessage());
            }
            return;
        }
        for (int i = 0; i < decided.size(); i++) {
            CreatePartitionsResult r = decided.get(i);
            CreatePartitionsTopicResult result = results.get(r.topic());
            if (r.error() != ReplicationError.NONE) {
                fail(result, Errors.forCode(r.error().kafkaCode()), r.message());
            } else if (!request.validateOnly()) {
                try {
                    topics.awaitPartitions(r.topic(), increases.get(i).count());
                } catch (TopicException e) {
                    fail(result, e.error(), e.getMessage());
                }
            }
        }
    }

    /** The replicas of each new partition, null when the request leaves placement to the controller. */
    private static int[][] assignments(CreatePartitionsTopic topic) throws TopicException {
        if (topic.assignments() == null) {
            return null;
        }
        int[][] replicas = new int[topic.assignments().size()][];
        int i = 0;
        for (CreatePartitionsAssignment a : topic.assignments()) {
            if (a.brokerIds() == null) {
                throw new TopicException(
                        Errors.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment " + "includes an empty replica list.");
            }
            replicas[i++] = a.brokerIds().stream().mapToInt(Integer::intValue).toArray();
        }
        return replicas;
    }

    private static Set<String> duplicates(CreatePartitionsRequestData request) {
        Set<String> seen = new HashSet<>();
        Set<String> duplicated = new HashSet<>();
        for (CreatePartitionsTopic topic : request.topics()) {
            if (!seen.add(topic.name())) {
                duplicated.add(topic.name());
            }
        }
        return duplicated;
    }

    private static void fail(CreatePartitionsTopicResult result, Errors error, String message) {
        result.setErrorCode(error.code()).setErrorMessage(message);
    }
}
