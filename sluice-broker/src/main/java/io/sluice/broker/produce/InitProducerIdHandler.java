package io.sluice.broker.produce;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.resource.ResourceType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * InitProducerId for idempotent producers: a fresh producer id with epoch 0, or, when a producer
 * asks to bump the epoch of the id it holds (KIP-360, v3+), the same id with the next epoch (a new
 * id once the epoch would overflow). Transactional ids are refused: this broker has no
 * transaction coordinator.
 *
 * <p>Thread-safe.
 */
public final class InitProducerIdHandler implements ApiHandler<InitProducerIdRequestData> {
    private static final Logger LOG = LoggerFactory.getLogger(InitProducerIdHandler.class);
    private final ProducerIdManager ids;

    public InitProducerIdHandler(ProducerIdManager ids) {
        this.ids = ids;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, InitProducerIdRequestData request) {
        InitProducerIdResponseData response = new InitProducerIdResponseData()
                .setProducerId(RecordBatch.NO_PRODUCER_ID)
                .setProducerEpoch(RecordBatch.NO_PRODUCER_EPOCH);
        if (request.transactionalId() != null) {
            return CompletableFuture.completedFuture(
                    response.setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code()));
        }
        // as Kafka 3.x: an idempotent producer needs IdempotentWrite on the cluster or Write on some topic
        if (!context.authorizeCluster(AclOperation.IDEMPOTENT_WRITE)
                && !context.authorizer().authorizeAny(context, AclOperation.WRITE, ResourceType.TOPIC)) {
            return CompletableFuture.completedFuture(response.setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code()));
        }
        try {
            long producerId = request.producerId();
            short epoch = request.producerEpoch();
            if (producerId >= 0 && epoch >= 0 && epoch < Short.MAX_VALUE - 1) {
                response.setProducerId(producerId).setProducerEpoch((short) (epoch + 1));
            } else {
                response.setProducerId(ids.nextProducerId()).setProducerEpoch((short) 0);
            }
            response.setErrorCode(Errors.NONE.code());
        } catch (IOException e) {
            LOG.error("Could not reserve producer ids", e);
            response.setErrorCode(Errors.KAFKA_STORAGE_ERROR.code());
        }
        return CompletableFuture.completedFuture(response);
    }
}
