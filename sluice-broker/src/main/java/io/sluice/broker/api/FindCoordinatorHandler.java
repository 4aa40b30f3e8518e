package io.sluice.broker.api;

import io.sluice.broker.cluster.BrokerNode;
import io.sluice.broker.cluster.ClusterView;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.OffsetsTopic;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.ToIntFunction;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData.Coordinator;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest.CoordinatorType;
import org.apache.kafka.common.resource.ResourceType;

/**
 * FindCoordinator: a group's coordinator is the leader of the {@code __consumer_offsets} partition
 * its id hashes to (COORDINATOR_NOT_AVAILABLE while that topic is being created or the partition's
 * broker is down). Transaction coordinators do not
 * exist here (COORDINATOR_NOT_AVAILABLE); other key types are invalid. v0-3 look up one key, v4+
 * a batch.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class FindCoordinatorHandler implements ApiHandler<FindCoordinatorRequestData> {
    private static final short FIRST_BATCHED_VERSION = 4;
    private final ClusterView cluster;
    private final OffsetsTopic offsetsTopic;
    private final ToIntFunction<String> partitionOfGroup;

    public FindCoordinatorHandler(
            ClusterView cluster, OffsetsTopic offsetsTopic, ToIntFunction<String> partitionOfGroup) {
        this.cluster = cluster;
        this.offsetsTopic = offsetsTopic;
        this.partitionOfGroup = partitionOfGroup;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, FindCoordinatorRequestData request) {
        FindCoordinatorResponseData response = new FindCoordinatorResponseData();
        if (context.apiVersion() < FIRST_BATCHED_VERSION) {
            Coordinator single = lookup(context, request.key(), request.keyType());
            response.setErrorCode(single.errorCode())
                    .setErrorMessage(single.errorMessage())
                    .setNodeId(single.nodeId())
                    .setHost(single.host())
                    .setPort(single.port());
        } else {
            for (String key : request.coordinatorKeys()) {
                response.coordinators().add(lookup(context, key, request.keyType()));
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private Coordinator lookup(RequestContext context, String key, byte keyType) {
        Coordinator coordinator =
                new Coordinator().setKey(key).setNodeId(-1).setHost("").setPort(-1);
        if (keyType == CoordinatorType.GROUP.id()
                && !context.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, key)) {
            return coordinator
                    .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code())
                    .setErrorMessage(Errors.GROUP_AUTHORIZATION_FAILED.message());
        }
        if (keyType == CoordinatorType.TRANSACTION.id()
                && !context.authorize(AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, key)) {
            return coordinator
                    .setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code())
                    .setErrorMessage(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.message());
        }
        if (keyType == CoordinatorType.GROUP.id()) {
            int leader = offsetsTopic.leaderOf(partitionOfGroup.applyAsInt(key));
            BrokerNode node = leader < 0 ? null : cluster.liveBroker(leader, context.listenerName());
            if (node == null) {
                return coordinator
                        .setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code())
                        .setErrorMessage("the coordinator of group '" + key + "' is not available yet");
            }
            return coordinator
                    .setErrorCode(Errors.NONE.code())
                    .setNodeId(node.id())
                    .setHost(node.host())
                    .setPort(node.port());
        }
        if (keyType == CoordinatorType.TRANSACTION.id()) {
            return coordinator
                    .setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code())
                    .setErrorMessage("this broker has no transaction coordinator");
        }
        return coordinator
                .setErrorCode(Errors.INVALID_REQUEST.code())
                .setErrorMessage("coordinator key type " + keyType + " is not served; known: "
                        + List.of(CoordinatorType.values()));
    }
}
