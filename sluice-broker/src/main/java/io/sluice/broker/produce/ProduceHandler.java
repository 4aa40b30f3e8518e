package io.sluice.broker.produce;

import io.sluice.broker.metrics.BrokerTopicMetrics;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.OffsetsTopic;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicManager;
import io.sluice.log.AppendResult;
import io.sluice.log.ProducerStateException;
import io.sluice.record.validate.RecordError;
import io.sluice.record.validate.RecordValidationException;
import io.sluice.record.validate.ValidatedRecords;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.ProduceResponseData.BatchIndexAndErrorMessage;
import org.apache.kafka.common.message.ProduceResponseData.PartitionProduceResponse;
import org.apache.kafka.common.message.ProduceResponseData.TopicProduceResponse;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.resource.ResourceType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Produce: each partition's records are validated in place (the request's own bytes, no copy),
 * appended with offsets assigned by the log, and acknowledged per acks. A partition whose batches
 * fail validation appends nothing and gets the Kafka error the client expects; the other
 * partitions of the request are unaffected. acks=1 is answered once the leader appended; acks=-1
 * needs min.insync.replicas in the ISR before the append (NOT_ENOUGH_REPLICAS) and is answered once
 * the high watermark passes the append, i.e. every ISR member holds it ({@link DelayedProduce}).
 *
 * <p>Thread-safe: uses the calling thread's validator.
 */
public final class ProduceHandler implements ApiHandler<ProduceRequestData> {
    private static final Logger LOG = LoggerFactory.getLogger(ProduceHandler.class);
    private static final short FIRST_VERSION_WITH_RECORD_ERRORS = 8;

    private final TopicManager topics;
    private final ValidatorPool validators;
    private final LongSupplier clock;
    private final ScheduledExecutorService timer;
    private final LongAdder recompressedBatches = new LongAdder();
    private final BrokerTopicMetrics topicMetrics;

    /**
     * @param timer        expires acks=all produces after the request's timeout
     * @param topicMetrics counts appended records and bytes, produce requests and failures per topic
     */
    public ProduceHandler(
            TopicManager topics,
            ValidatorPool validators,
            LongSupplier clock,
            ScheduledExecutorService timer,
            BrokerTopicMetrics topicMetrics) {
        this.topicMetrics = topicMetrics;
        this.topics = topics;
        this.validators = validators;
        this.clock = clock;
        this.timer = timer;
    }

    /** Batches stored in a different codec than the producer sent, because the topic's compression.type demands it. */
    public long recompressedBatches() {
        return recompressedBatches.sum();
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, ProduceRequestData request) {
        short acks = request.acks();
        ProduceResponseData response = new ProduceResponseData();
        List<CompletableFuture<Void>> waiting = new ArrayList<>();
        for (ProduceRequestData.TopicProduceData topicData : request.topicData()) {
            TopicProduceResponse topicResponse = new TopicProduceResponse().setName(topicData.name());
            for (ProduceRequestData.PartitionProduceData partitionData : topicData.partitionData()) {
                PartitionProduceResponse result = new PartitionProduceResponse()
                        .setIndex(partitionData.index())
                        .setBaseOffset(-1)
                        .setLogAppendTimeMs(-1)
                        .setLogStartOffset(-1);
                if (acks != 0 && acks != 1 && acks != -1) {
                    fail(result, Errors.INVALID_REQUIRED_ACKS, "acks must be -1, 0 or 1, was " + acks);
                } else if (request.transactionalId() != null) {
                    fail(
                            result,
                            Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
                            "transactional produce (transactional.id " + request.transactionalId()
                                    + ") is not supported by this broker");
                } else if (!context.authorize(AclOperation.WRITE, ResourceType.TOPIC, topicData.name())) {
                    fail(
                            result,
                            Errors.TOPIC_AUTHORIZATION_FAILED,
                            "Not authorized to write to topic " + topicData.name());
                } else {
                    CompletableFuture<Void> acked =
                            append(context, acks, request.timeoutMs(), topicData.name(), partitionData, result);
                    if (acked != null) {
                        waiting.add(acked);
                    }
                }
                topicResponse.partitionResponses().add(result);
            }
            response.responses().add(topicResponse);
        }
        if (acks == 0) {
            return CompletableFuture.completedFuture(null);
        }
        if (waiting.isEmpty()) {
            return CompletableFuture.completedFuture(response);
        }
        return CompletableFuture.allOf(waiting.toArray(new CompletableFuture<?>[0]))
                .thenApply(done -> response);
    }

    /** Appends one partition's batches; returns what an acks=all answer still waits for, null when complete. */
    private CompletableFuture<Void> append(
            RequestContext context,
            short acks,
            int timeoutMs,
            String topic,
            ProduceRequestData.PartitionProduceData data,
            PartitionProduceResponse result) {
        if (OffsetsTopic.isInternal(topic)) {
            fail(result, Errors.INVALID_TOPIC_EXCEPTION, "Cannot append to internal topic " + topic);
            return null;
        }
        Partition partition = topics.partition(topic, data.index());
        if (partition == null) {
            Errors error = topics.unservedError(topic, data.index());
            if (error == Errors.NOT_LEADER_OR_FOLLOWER) {
                topicMetrics.onProduceRequest(topic);
            }
            fail(
                    result,
                    error,
                    error == Errors.NOT_LEADER_OR_FOLLOWER
                            ? "Broker is not the leader of " + topic + "-" + data.index()
                            : "This server does not host this topic-partition: " + topic + "-" + data.index());
            return null;
        }
        topicMetrics.onProduceRequest(topic);
        int inSyncReplicas = partition.committedInSyncReplicaCount();
        if (acks == -1 && inSyncReplicas < partition.config().minInsyncReplicas()) {
            topicMetrics.onProduceFailed(topic);
            fail(
                    result,
                    Errors.NOT_ENOUGH_REPLICAS,
                    "acks=all needs min.insync.replicas=" + partition.config().minInsyncReplicas()
                            + " in-sync replicas of " + partition + ", but only " + inSyncReplicas + " are in sync");
            return null;
        }
        if (!(data.records() instanceof MemoryRecords records) || records.sizeInBytes() == 0) {
            fail(result, Errors.CORRUPT_MESSAGE, "produce to " + partition + " carried no record batches");
            return null;
        }
        long now = clock.getAsLong();
        try {
            ValidatedRecords validated = validators.validate(records.buffer(), partition.validationPolicy(), now);
            if (validated.recompressedBatches() > 0) {
                recompressedBatches.add(validated.recompressedBatches());
            }
            int leaderEpoch = partition.leaderEpoch();
            // Refused when the broker stopped leading in this epoch since: no batch is stamped with an epoch over.
            AppendResult appended = partition.appendAsLeader(validated.records(), leaderEpoch, now);
            result.setErrorCode(Errors.NONE.code())
                    .setBaseOffset(appended.firstOffset())
                    .setLogAppendTimeMs(partition.validationPolicy().logAppendTime() ? now : -1)
                    .setLogStartOffset(appended.logStartOffset());
            // Also for a retried duplicate: its acks=all wait must see the high watermark as the ISR allows it now.
            partition.maybeAdvanceHighWatermark();
            if (!appended.duplicate()) {
                partition.notifyAppended();
                topicMetrics.onAppended(
                        topic, appended.lastOffset() - appended.firstOffset() + 1, records.sizeInBytes());
            }
            if (acks == -1 && appended.lastOffset() >= 0) {
                return new DelayedProduce(
                                partition,
                                appended.lastOffset() + 1,
                                leaderEpoch,
                                partition.config().minInsyncReplicas())
                        .start(timer, timeoutMs)
                        .thenAccept(error -> {
                            if (error != Errors.NONE) {
                                fail(result, error, acksAllFailure(error, partition));
                            }
                        });
            }
            return null;
        } catch (RecordValidationException e) {
            if (countsAsFailedProduce(e.errorCode())) {
                topicMetrics.onProduceFailed(topic);
            }
            fail(result, Errors.forCode(e.errorCode()), e.getMessage());
            if (context.apiVersion() >= FIRST_VERSION_WITH_RECORD_ERRORS) {
                for (RecordError recordError : e.recordErrors()) {
                    result.recordErrors()
                            .add(new BatchIndexAndErrorMessage()
                                    .setBatchIndex(recordError.batchIndex())
                                    .setBatchIndexErrorMessage(recordError.message()));
                }
            }
            LOG.debug("Rejected produce to {} from {}: {}", partition, context.clientHost(), e.getMessage());
            return null;
        } catch (ProducerStateException e) {
            topicMetrics.onProduceFailed(topic);
            fail(result, Errors.forCode(e.errorCode()), e.getMessage());
            LOG.debug("Rejected produce to {} from {}: {}", partition, context.clientHost(), e.getMessage());
            return null;
        } catch (NotLeaderOrFollowerException e) {
            // Not a failed produce in Kafka's count (appendToLocalLog), as for a partition not led at lookup.
            fail(result, Errors.NOT_LEADER_OR_FOLLOWER, e.getMessage());
            return null;
        } catch (IOException | RuntimeException e) {
            if (partition.log().isClosed()) {
                // The replica was removed (a reassignment took it off this broker) between lookup and append.
                fail(result, Errors.NOT_LEADER_OR_FOLLOWER, "this broker no longer hosts " + partition);
                return null;
            }
            LOG.error("Append to {} failed", partition, e);
            fail(result, Errors.KAFKA_STORAGE_ERROR, "append to " + partition + " failed: " + e.getMessage());
            return null;
        }
    }

    /**
     * Kafka's appendToLocalLog does not count corrupt or too large batches as failed produce requests (the client
     * sent something unusable), but counts every other validation failure (timestamps, record fields).
     */
    private static boolean countsAsFailedProduce(short errorCode) {
        return errorCode != Errors.CORRUPT_MESSAGE.code()
                && errorCode != Errors.MESSAGE_TOO_LARGE.code()
                && errorCode != Errors.RECORD_LIST_TOO_LARGE.code();
    }

    private static String acksAllFailure(Errors error, Partition partition) {
        return switch (error) {
            case NOT_ENOUGH_REPLICAS_AFTER_APPEND ->
                "the ISR of " + partition + " shrank below min.insync.replicas="
                        + partition.config().minInsyncReplicas() + " before every in-sync replica had the records";
            case REQUEST_TIMED_OUT -> "the in-sync replicas of " + partition + " did not all get the records in time";
            default -> "this broker stopped leading " + partition + " before every in-sync replica had the records";
        };
    }

    private static void fail(PartitionProduceResponse result, Errors error, String message) {
        result.setErrorCode(error.code()).setErrorMessage(message).setBaseOffset(-1);
    }
}
