package io.sluice.broker.metrics;

import io.sluice.broker.network.RequestObserver;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.EnumMap;
import java.util.Map;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns every answered request into Kafka's request metrics (rate per version, time histograms, ErrorsPerSec) and,
 * for fetches, the BrokerTopicMetrics Kafka counts from the response: BytesOutPerSec for consumers,
 * TotalFetchRequestsPerSec, and FailedFetchRequestsPerSec for partitions that failed for a reason other than routing
 * or offsets (Kafka's ReplicaManager.readFromLog). Errors are counted as Kafka's errorCounts() does for Produce and
 * Fetch (every partition's code, and Fetch's top-level one); other responses count their top-level error code when
 * they have one, else NONE.
 *
 * <p>Thread-safe; called on request-handler and network threads.
 */
public final class RequestMetricsObserver implements RequestObserver {
    private static final Logger LOG = LoggerFactory.getLogger(RequestMetricsObserver.class);
    private static final MethodType ERROR_CODE_GETTER = MethodType.methodType(short.class);
    private static final short NONE = Errors.NONE.code();
    /** Fetches of topics that do not exist create no per-topic meters (a client naming random topics would). */
    private static final short UNKNOWN_TOPIC = Errors.UNKNOWN_TOPIC_OR_PARTITION.code();

    private static final short UNKNOWN_TOPIC_ID = Errors.UNKNOWN_TOPIC_ID.code();

    private final RequestMetrics requests;
    private final BrokerTopicMetrics topics;
    /** Each response type's top-level {@code errorCode()} accessor, looked up once; absent when it has none. */
    private final Map<ApiKeys, MethodHandle> topLevelErrorCode = new EnumMap<>(ApiKeys.class);

    public RequestMetricsObserver(RequestMetrics requests, BrokerTopicMetrics topics) {
        this.requests = requests;
        this.topics = topics;
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        for (ApiKeys key : ApiKeys.values()) {
            Class<? extends ApiMessage> responseClass =
                    key.messageType.newResponse().getClass();
            try {
                topLevelErrorCode.put(
                        key,
                        lookup.findVirtual(responseClass, "errorCode", ERROR_CODE_GETTER)
                                .asType(MethodType.methodType(short.class, ApiMessage.class)));
            } catch (NoSuchMethodException | IllegalAccessException e) {
                LOG.trace("{} responses have no top-level error code", key);
            }
        }
    }

    @Override
    public void onAnswered(
            ApiKeys apiKey,
            short version,
            boolean fromFollower,
            ApiMessage response,
            long queueNanos,
            long localNanos,
            long remoteNanos,
            long sendNanos) {
        long now = System.nanoTime(); // one clock read for all of the request's meters and histograms
        RequestMetrics.Type type = requests.of(apiKey);
        RequestMetrics.Type fetchType = null;
        if (apiKey == ApiKeys.FETCH) {
            // Fetch's times are read from FetchConsumer's and FetchFollower's: recorded once, counted as both
            fetchType = requests.fetchBy(fromFollower);
            fetchType.record(version, queueNanos, localNanos, remoteNanos, sendNanos, now);
            type.countRequest(version, now);
        } else {
            type.record(version, queueNanos, localNanos, remoteNanos, sendNanos, now);
        }
        if (response instanceof ProduceResponseData produce) {
            countProduceErrors(produce, type, now);
        } else if (response instanceof FetchResponseData fetch) {
            countFetch(fetch, fromFollower, type, fetchType, now);
        } else if (response != null) {
            type.markError(topLevelErrorCode(apiKey, response), 1, now);
        }
    }

    private static void countProduceErrors(ProduceResponseData produce, RequestMetrics.Type type, long now) {
        int none = 0;
        for (ProduceResponseData.TopicProduceResponse topic : produce.responses()) {
            for (ProduceResponseData.PartitionProduceResponse partition : topic.partitionResponses()) {
                short error = partition.errorCode();
                if (error == NONE) {
                    none++; // counted together below: the meter is marked once per response, not per partition
                } else {
                    type.markError(error, 1, now);
                }
            }
        }
        if (none > 0) {
            type.markError(NONE, none, now);
        }
    }

    private void countFetch(
            FetchResponseData fetch,
            boolean fromFollower,
            RequestMetrics.Type type,
            RequestMetrics.Type fetchType,
            long now) {
        // Fetch's own error code and every partition's are counted, in Fetch and in FetchConsumer or FetchFollower;
        // the NONEs together, once per response.
        int none = markUnlessNone(fetch.errorCode(), type, fetchType, now);
        for (FetchResponseData.FetchableTopicResponse topic : fetch.responses()) {
            String name = topic.topic();
            boolean counted = name != null && !name.isEmpty();
            int asked = 0;
            int failed = 0;
            long bytes = 0;
            for (FetchResponseData.PartitionData partition : topic.partitions()) {
                short error = partition.errorCode();
                none += markUnlessNone(error, type, fetchType, now);
                if (!counted || error == UNKNOWN_TOPIC || error == UNKNOWN_TOPIC_ID) {
                    continue;
                }
                asked++;
                if (error == NONE) {
                    bytes += partition.records() == null
                            ? 0
                            : partition.records().sizeInBytes();
                } else if (countsAsFailedFetch(error)) {
                    failed++;
                }
            }
            if (asked > 0) {
                topics.onFetched(name, asked, failed, fromFollower ? 0 : bytes, now);
            }
        }
        if (none > 0) {
            type.markError(NONE, none, now);
            fetchType.markError(NONE, none, now);
        }
    }

    /** Marks {@code error} in both types unless it is NONE; returns 1 for a NONE (counted together later), else 0. */
    private static int markUnlessNone(short error, RequestMetrics.Type type, RequestMetrics.Type fetchType, long now) {
        if (error == NONE) {
            return 1;
        }
        type.markError(error, 1, now);
        fetchType.markError(error, 1, now);
        return 0;
    }

    /** Kafka's readFromLog counts a partition's fetch as failed unless it failed for routing or offsets. */
    private static boolean countsAsFailedFetch(short errorCode) {
        Errors error = Errors.forCode(errorCode);
        return switch (error) {
            case UNKNOWN_TOPIC_OR_PARTITION,
                    UNKNOWN_TOPIC_ID,
                    NOT_LEADER_OR_FOLLOWER,
                    UNKNOWN_LEADER_EPOCH,
                    FENCED_LEADER_EPOCH,
                    REPLICA_NOT_AVAILABLE,
                    KAFKA_STORAGE_ERROR,
                    INCONSISTENT_TOPIC_ID,
                    OFFSET_OUT_OF_RANGE,
                    TOPIC_AUTHORIZATION_FAILED -> false;
            default -> true;
        };
    }

    private short topLevelErrorCode(ApiKeys apiKey, ApiMessage response) {
        MethodHandle getter = topLevelErrorCode.get(apiKey);
        if (getter == null) {
            return NONE;
        }
        try {
            return (short) getter.invokeExact(response);
        } catch (Throwable e) {
            LOG.debug("Could not read the error code of a {} response", apiKey, e);
            return NONE;
        }
    }
}
