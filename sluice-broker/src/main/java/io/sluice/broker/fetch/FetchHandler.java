package io.sluice.broker.fetch;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.replica.ReplicaManager;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.broker.topic.TopicManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.ToIntFunction;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Fetch, from consumers and from followers (a replica id in the request): resolves the requested
 * partitions (by name, or by topic id from v13), reads whole batches as file ranges that are later
 * sent with sendfile — consumers up to the high watermark, followers up to the log end — and answers
 * at once when enough bytes (min_bytes) are there, or parks the fetch until an append or a higher
 * high watermark brings them or max_wait_ms passes.
 * Fetch sessions are not kept: every answer has session id 0, which makes clients send full
 * fetches, as with a Kafka broker whose session cache is full. A consumer's max_bytes is capped by its fetch quota
 * (Kafka's {@code getMaxValueInQuotaWindow}) so one answer never outgrows the quota.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class FetchHandler implements ApiHandler<FetchRequestData> {
    private static final short FIRST_VERSION_WITH_TOPIC_IDS = 13;
    private static final short FIRST_VERSION_WITH_DIVERGING_EPOCH = 12;
    private static final short FIRST_VERSION_WITH_REPLICA_STATE = 15;

    private final TopicManager topics;
    private final ReplicaManager replicas;
    private final ScheduledExecutorService timer;
    private final ToIntFunction<RequestContext> quotaMaxBytes;

    public FetchHandler(TopicManager topics, ReplicaManager replicas, ScheduledExecutorService timer) {
        this(topics, replicas, timer, context -> Integer.MAX_VALUE);
    }

    /** @param quotaMaxBytes the most a consumer's fetch may return under its fetch quota ({@code Integer.MAX_VALUE}: no quota) */
    public FetchHandler(
            TopicManager topics,
            ReplicaManager replicas,
            ScheduledExecutorService timer,
            ToIntFunction<RequestContext> quotaMaxBytes) {
        this.topics = topics;
        this.replicas = replicas;
        this.timer = timer;
        this.quotaMaxBytes = quotaMaxBytes;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, FetchRequestData request) {
        boolean byId = context.apiVersion() >= FIRST_VERSION_WITH_TOPIC_IDS;
        int replicaId = context.apiVersion() >= FIRST_VERSION_WITH_REPLICA_STATE
                ? request.replicaState().replicaId()
                : request.replicaId();
        // As Kafka: a follower needs ClusterAction on the cluster, a consumer Read on each topic.
        boolean followerRefused = replicaId >= 0 && !context.authorizeCluster(AclOperation.CLUSTER_ACTION);
        List<FetchTarget> targets = new ArrayList<>();
        for (FetchRequestData.FetchTopic topic : request.topics()) {
            String name = topic.topic();
            Uuid id = topic.topicId();
            Errors topicError = Errors.NONE;
            if (byId) {
                TopicInfo info = topics.topic(id);
                name = info == null ? "" : info.name();
                topicError = info == null ? Errors.UNKNOWN_TOPIC_ID : Errors.NONE;
            } else {
                TopicInfo info = topics.topic(name);
                id = info == null ? Uuid.ZERO_UUID : info.id();
            }
            if (followerRefused
                    || (replicaId < 0
                            && topicError == Errors.NONE
                            && !context.authorize(AclOperation.READ, ResourceType.TOPIC, name))) {
                topicError = Errors.TOPIC_AUTHORIZATION_FAILED;
            }
            for (FetchRequestData.FetchPartition partition : topic.partitions()) {
                targets.add(new FetchTarget(
                        name,
                        id,
                        partition.partition(),
                        partition.fetchOffset(),
                        partition.partitionMaxBytes(),
                        topicError,
                        partition.currentLeaderEpoch(),
                        context.apiVersion() >= FIRST_VERSION_WITH_DIVERGING_EPOCH ? partition.lastFetchedEpoch() : -1,
                        partition.logStartOffset()));
            }
        }
        int maxBytes =
                replicaId >= 0 ? request.maxBytes() : Math.min(request.maxBytes(), quotaMaxBytes.applyAsInt(context));
        int minBytes = Math.min(request.minBytes(), maxBytes);
        FetchReader reader =
                new FetchReader(topics, replicas, targets, maxBytes, request.isolationLevel(), Math.max(-1, replicaId));
        FetchReader.Result first = reader.read(true);
        if (request.maxWaitMs() <= 0 || first.bytes() >= minBytes || first.hasError() || targets.isEmpty()) {
            return CompletableFuture.completedFuture(first.response());
        }
        return new DelayedFetch(
                        topics, () -> reader.read(false), targets, minBytes, request.maxWaitMs(), timer, replicaId >= 0)
                .start();
    }
}
