package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.controller.AlterPartitionResult;
import io.sluice.cluster.controller.IsrChangeRequest;
import io.sluice.cluster.node.ClusterNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.AlterPartitionRequestData;
import org.apache.kafka.common.message.AlterPartitionResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * AlterPartition on the controller's broker: a partition leader's proposed ISR changes, fenced by its leader epoch
 * and partition epoch, decided and published by the controller; each partition is answered with the state as
 * published (new partition epoch) or with the error and the current state. On any other broker the whole request is
 * answered NOT_CONTROLLER and the leader finds the controller again.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class AlterPartitionHandler implements ApiHandler<AlterPartitionRequestData> {
    private static final short FIRST_VERSION_WITH_BROKER_EPOCHS = 3;

    private final Supplier<ClusterNode> node;

    public AlterPartitionHandler(Supplier<ClusterNode> node) {
        this.node = node;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, AlterPartitionRequestData request) {
        ClusterNode n = node.get();
        if (n == null || !n.isController()) {
            return CompletableFuture.completedFuture(
                    new AlterPartitionResponseData().setErrorCode(Errors.NOT_CONTROLLER.code()));
        }
        List<IsrChangeRequest> changes = new ArrayList<>();
        for (AlterPartitionRequestData.TopicData topic : request.topics()) {
            UUID topicId = new UUID(
                    topic.topicId().getMostSignificantBits(), topic.topicId().getLeastSignificantBits());
            for (AlterPartitionRequestData.PartitionData p : topic.partitions()) {
                int[] isr;
                if (context.apiVersion() >= FIRST_VERSION_WITH_BROKER_EPOCHS) {
                    isr = p.newIsrWithEpochs().stream()
                            .mapToInt(AlterPartitionRequestData.BrokerState::brokerId)
                            .toArray();
                } else {
                    isr = p.newIsr().stream().mapToInt(Integer::intValue).toArray();
                }
                changes.add(
                        new IsrChangeRequest(topicId, p.partitionIndex(), p.leaderEpoch(), p.partitionEpoch(), isr));
            }
        }
        return n.alterPartition(request.brokerId(), changes).handle((results, failure) -> {
            if (failure != null) {
                return new AlterPartitionResponseData().setErrorCode(Errors.NOT_CONTROLLER.code());
            }
            return respond(results);
        });
    }

    private static ApiMessage respond(List<AlterPartitionResult> results) {
        Map<UUID, AlterPartitionResponseData.TopicData> topics = new LinkedHashMap<>();
        AlterPartitionResponseData response = new AlterPartitionResponseData().setErrorCode(Errors.NONE.code());
        for (AlterPartitionResult r : results) {
            AlterPartitionResponseData.TopicData topic = topics.computeIfAbsent(r.topicId(), id -> {
                AlterPartitionResponseData.TopicData t = new AlterPartitionResponseData.TopicData()
                        .setTopicId(new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits()));
                response.topics().add(t);
                return t;
            });
            AlterPartitionResponseData.PartitionData data = new AlterPartitionResponseData.PartitionData()
                    .setPartitionIndex(r.partition())
                    .setErrorCode(r.error().kafkaCode());
            if (r.state() != null) {
                List<Integer> isr = new ArrayList<>();
                for (int id : r.state().isr()) {
                    isr.add(id);
                }
                data.setLeaderId(r.state().leader())
                        .setLeaderEpoch(r.state().leaderEpoch())
                        .setIsr(isr)
                        .setPartitionEpoch(r.state().partitionEpoch());
            }
            topic.partitions().add(data);
        }
        return response;
    }
}
