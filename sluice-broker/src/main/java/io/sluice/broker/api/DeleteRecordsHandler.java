package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.replica.LeaderState;
import io.sluice.broker.topic.OffsetsTopic;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicManager;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.ClusterState;
import io.sluice.log.LogManager;
import io.sluice.log.OffsetOutOfRangeException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteRecordsRequestData.DeleteRecordsPartition;
import org.apache.kafka.common.message.DeleteRecordsRequestData.DeleteRecordsTopic;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.message.DeleteRecordsResponseData.DeleteRecordsPartitionResult;
import org.apache.kafka.common.message.DeleteRecordsResponseData.DeleteRecordsTopicResult;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DeleteRecords ({@code kafka-delete-records.sh}, {@code Admin.deleteRecords}), as Kafka's leader runs it: the log
 * start offset of each partition led here advances to the offset asked for (-1: the high watermark), the new start is
 * checkpointed before the answer, and whole segments below it go (a segment a partition move has pinned stays until
 * the pin is released; retention deletes it then). Followers learn the new start from their fetch answers
 * (log_start_offset) and report theirs in their next fetch; like Kafka's DelayedDeleteRecords the answer waits until
 * the low watermark (the lowest log start of the leader and its live followers) reaches the offset, or answers
 * REQUEST_TIMED_OUT after the request's timeout. Errors as Kafka: OFFSET_OUT_OF_RANGE beyond the high watermark or for
 * a negative offset, NOT_LEADER_OR_FOLLOWER off the leader, UNKNOWN_TOPIC_OR_PARTITION, POLICY_VIOLATION on a topic
 * whose cleanup.policy lacks delete, INVALID_TOPIC_EXCEPTION on the offsets topic.
 *
 * <p>Thread-safe (stateless past construction; each request's waiting state is its own).
 */
public final class DeleteRecordsHandler implements ApiHandler<DeleteRecordsRequestData> {
    private static final Logger LOG = LoggerFactory.getLogger(DeleteRecordsHandler.class);
    /** Kafka's DeleteRecordsRequest.HIGH_WATERMARK: delete up to the high watermark. */
    static final long HIGH_WATERMARK = -1L;
    /**
     * How often a waiting request re-reads the low watermarks: followers report their log start once per fetch
     * (at least every replica.fetch.wait.max.ms), so a short fixed period adds little latency and one pass over
     * the request's partitions per tick.
     */
    private static final long RECHECK_MS = 20;

    private static final long NO_LOW_WATERMARK = -1L;

    private final TopicManager topics;
    private final LogManager logs;
    private final Supplier<ClusterNode> node;
    private final ScheduledExecutorService timer;

    public DeleteRecordsHandler(
            TopicManager topics, LogManager logs, Supplier<ClusterNode> node, ScheduledExecutorService timer) {
        this.topics = topics;
        this.logs = logs;
        this.node = node;
        this.timer = timer;
    }

    /** One partition the answer waits for: its low watermark must reach {@code requested}. */
    private record Waiting(String topic, DeleteRecordsPartitionResult result, long requested) {}

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, DeleteRecordsRequestData request) {
        DeleteRecordsResponseData response = new DeleteRecordsResponseData();
        List<Waiting> waiting = new ArrayList<>();
        boolean advanced = false;
        for (DeleteRecordsTopic topic : request.topics()) {
            DeleteRecordsTopicResult topicResult = new DeleteRecordsTopicResult().setName(topic.name());
            response.topics().add(topicResult);
            for (DeleteRecordsPartition p : topic.partitions()) {
                DeleteRecordsPartitionResult result = new DeleteRecordsPartitionResult()
                        .setPartitionIndex(p.partitionIndex())
                        .setLowWatermark(NO_LOW_WATERMARK);
                topicResult.partitions().add(result);
                if (!context.authorize(AclOperation.DELETE, ResourceType.TOPIC, topic.name())) {
                    fail(result, Errors.TOPIC_AUTHORIZATION_FAILED);
                    continue;
                }
                long requested = deleteOnLeader(topic.name(), p, result);
                if (requested >= 0) {
                    advanced = true;
                    waiting.add(new Waiting(topic.name(), result, requested));
                }
            }
        }
        if (advanced) {
            try {
                logs.checkpointLogStartOffsets();
            } catch (IOException e) {
                LOG.error("DeleteRecords: the log start offsets could not be checkpointed", e);
                for (Waiting w : waiting) {
                    w.result().setErrorCode(Errors.KAFKA_STORAGE_ERROR.code());
                }
                return CompletableFuture.completedFuture(response);
            }
        }
        CompletableFuture<ApiMessage> answer = new CompletableFuture<>();
        long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, request.timeoutMs()));
        awaitLowWatermarks(response, waiting, deadlineNanos, answer);
        return answer;
    }

    /**
     * Advances the partition's log start on this leader.
     *
     * @return the offset the low watermark must reach, or -1 when {@code result} already holds the error
     */
    private long deleteOnLeader(String topic, DeleteRecordsPartition p, DeleteRecordsPartitionResult result) {
        Partition partition = topics.partition(topic, p.partitionIndex());
        if (partition == null) {
            fail(result, topics.unservedError(topic, p.partitionIndex()));
            return -1;
        }
        if (OffsetsTopic.isInternal(topic)) {
            fail(result, Errors.INVALID_TOPIC_EXCEPTION);
            return -1;
        }
        if (!partition.config().deleteEnabled()) {
            fail(result, Errors.POLICY_VIOLATION);
            return -1;
        }
        long highWatermark = partition.highWatermark();
        long offset = p.offset() == HIGH_WATERMARK ? highWatermark : p.offset();
        if (offset < 0 || offset > highWatermark) {
            fail(result, Errors.OFFSET_OUT_OF_RANGE);
            return -1;
        }
        try {
            if (offset > partition.log().logStartOffset()) {
                partition.log().deleteRecordsBefore(offset);
                LOG.info("DeleteRecords: {} starts at {} now", partition, offset);
            }
            return offset;
        } catch (OffsetOutOfRangeException e) {
            fail(result, Errors.OFFSET_OUT_OF_RANGE);
        } catch (IOException | RuntimeException e) {
            if (topics.partition(topic, p.partitionIndex()) != partition) {
                fail(result, Errors.NOT_LEADER_OR_FOLLOWER);
            } else {
                LOG.error("DeleteRecords on {} up to {} failed", partition, offset, e);
                fail(result, Errors.KAFKA_STORAGE_ERROR);
            }
        }
        return -1;
    }

    /** Answers once every waiting partition's low watermark reached its offset, or at the deadline. */
    private void awaitLowWatermarks(
            DeleteRecordsResponseData response,
            List<Waiting> waiting,
            long deadlineNanos,
            CompletableFuture<ApiMessage> answer) {
        ClusterNode n = node.get();
        ClusterState state = n == null ? ClusterState.EMPTY : n.current();
        boolean expired = System.nanoTime() - deadlineNanos >= 0;
        List<Waiting> still = new ArrayList<>(waiting.size());
        for (Waiting w : waiting) {
            Partition partition = topics.partition(w.topic(), w.result().partitionIndex());
            LeaderState leader = partition == null ? null : partition.leaderState();
            if (leader == null) {
                fail(w.result(), Errors.NOT_LEADER_OR_FOLLOWER);
                continue;
            }
            long low = leader.lowWatermark(partition.log().logStartOffset(), state::hasBroker);
            if (low >= w.requested()) {
                w.result().setLowWatermark(low).setErrorCode(Errors.NONE.code());
            } else if (expired) {
                fail(w.result(), Errors.REQUEST_TIMED_OUT);
            } else {
                still.add(w);
            }
        }
        if (still.isEmpty()) {
            answer.complete(response);
            return;
        }
        try {
            // A failure of the re-check fails the answer (the connection handler logs it), not the timer's future.
            var unused = timer.schedule(
                    () -> {
                        try {
                            awaitLowWatermarks(response, still, deadlineNanos, answer);
                        } catch (RuntimeException e) {
                            answer.completeExceptionally(e);
                        }
                    },
                    RECHECK_MS,
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            for (Waiting w : still) {
                fail(w.result(), Errors.REQUEST_TIMED_OUT);
            }
            answer.complete(response);
        }
    }

    private static void fail(DeleteRecordsPartitionResult result, Errors error) {
        result.setErrorCode(error.code()).setLowWatermark(NO_LOW_WATERMARK);
    }
}
