package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.controller.ControlledShutdownResult;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.PartitionRef;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.message.ControlledShutdownRequestData;
import org.apache.kafka.common.message.ControlledShutdownResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * ControlledShutdown on the controller's broker: the controller moves every leadership the stopping broker holds to
 * another in-sync replica and answers with the partitions it could not move (the broker retries). On any other
 * broker: NOT_CONTROLLER.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class ControlledShutdownHandler implements ApiHandler<ControlledShutdownRequestData> {
    private final Supplier<ClusterNode> node;

    public ControlledShutdownHandler(Supplier<ClusterNode> node) {
        this.node = node;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, ControlledShutdownRequestData request) {
        ClusterNode n = node.get();
        if (n == null || !n.isController()) {
            return CompletableFuture.completedFuture(
                    new ControlledShutdownResponseData().setErrorCode(Errors.NOT_CONTROLLER.code()));
        }
        return n.controlledShutdown(request.brokerId(), request.brokerEpoch()).handle((result, failure) -> {
            if (failure != null) {
                return new ControlledShutdownResponseData().setErrorCode(Errors.NOT_CONTROLLER.code());
            }
            return respond(result);
        });
    }

    private static ApiMessage respond(ControlledShutdownResult result) {
        ControlledShutdownResponseData response =
                new ControlledShutdownResponseData().setErrorCode(result.error().kafkaCode());
        for (PartitionRef ref : result.remaining()) {
            response.remainingPartitions()
                    .add(new ControlledShutdownResponseData.RemainingPartition()
                            .setTopicName(ref.topic())
                            .setPartitionIndex(ref.partition()));
        }
        return response;
    }
}
