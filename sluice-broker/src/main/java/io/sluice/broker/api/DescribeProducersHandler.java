package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicManager;
import io.sluice.log.producer.ActiveProducer;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeProducersRequestData.TopicRequest;
import org.apache.kafka.common.message.DescribeProducersResponseData;
import org.apache.kafka.common.message.DescribeProducersResponseData.PartitionResponse;
import org.apache.kafka.common.message.DescribeProducersResponseData.ProducerState;
import org.apache.kafka.common.message.DescribeProducersResponseData.TopicResponse;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DescribeProducers ({@code kafka-transactions.sh describe-producers}, {@code Admin.describeProducers}): the
 * idempotent producers the leader's producer state tracks per partition, with epoch, last sequence and last
 * timestamp. Sluice has no transactions yet, so the coordinator epoch and the current transaction start offset are
 * always -1, as Kafka reports them for a producer outside a transaction. A partition not led here answers
 * NOT_LEADER_OR_FOLLOWER, one the cluster does not have UNKNOWN_TOPIC_OR_PARTITION, as Kafka does.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class DescribeProducersHandler implements ApiHandler<DescribeProducersRequestData> {
    private static final int NO_COORDINATOR_EPOCH = -1;
    private static final long NO_TRANSACTION = -1L;

    private final TopicManager topics;

    public DescribeProducersHandler(TopicManager topics) {
        this.topics = topics;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, DescribeProducersRequestData request) {
        DescribeProducersResponseData response = new DescribeProducersResponseData();
        for (TopicRequest topic : request.topics()) {
            TopicResponse topicResponse = new TopicResponse().setName(topic.name());
            response.topics().add(topicResponse);
            for (int index : topic.partitionIndexes()) {
                topicResponse
                        .partitions()
                        .add(
                                context.authorize(AclOperation.READ, ResourceType.TOPIC, topic.name())
                                        ? describe(topic.name(), index)
                                        : new PartitionResponse()
                                                .setPartitionIndex(index)
                                                .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                                                .setErrorMessage(Errors.TOPIC_AUTHORIZATION_FAILED.message()));
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private PartitionResponse describe(String topic, int index) {
        PartitionResponse result = new PartitionResponse().setPartitionIndex(index);
        Partition partition = topics.partition(topic, index);
        if (partition == null) {
            Errors error = topics.unservedError(topic, index);
            return result.setErrorCode(error.code()).setErrorMessage(error.message());
        }
        for (ActiveProducer p : partition.log().activeProducers()) {
            result.activeProducers()
                    .add(new ProducerState()
                            .setProducerId(p.producerId())
                            .setProducerEpoch(p.epoch())
                            .setLastSequence(p.lastSequence())
                            .setLastTimestamp(p.lastTimestamp())
                            .setCoordinatorEpoch(NO_COORDINATOR_EPOCH)
                            .setCurrentTxnStartOffset(NO_TRANSACTION));
        }
        return result.setErrorCode(Errors.NONE.code());
    }
}
