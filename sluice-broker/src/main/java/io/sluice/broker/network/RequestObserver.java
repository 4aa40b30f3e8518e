package io.sluice.broker.network;

import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;

/**
 * Told about every answered Kafka request, once its response is written (or at once when the protocol sends none):
 * where its time went and what the response said. The broker's metrics implement it; {@link #NONE} ignores all.
 *
 * <p>Implementations are thread-safe and cheap: they run on request-handler and network threads for every request.
 */
public interface RequestObserver {
    RequestObserver NONE = new RequestObserver() {
        @Override
        public boolean enabled() {
            return false;
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
                long sendNanos) {}
    };

    /** False when nothing is observed, so the connection need not time anything. */
    default boolean enabled() {
        return true;
    }

    /**
     * @param fromFollower  a Fetch from a follower replica (Kafka's FetchFollower), not a consumer
     * @param response      the response body, null when none is sent (produce with acks=0)
     * @param queueNanos    from reaching its connection's handler to its handling starting (behind earlier requests)
     * @param localNanos    handled on the request-handler thread
     * @param remoteNanos   then waiting for others: replicas for acks=all, data for a long-poll fetch, a group join
     * @param sendNanos     from writing the response until the connection had it all
     */
    void onAnswered(
            ApiKeys apiKey,
            short version,
            boolean fromFollower,
            ApiMessage response,
            long queueNanos,
            long localNanos,
            long remoteNanos,
            long sendNanos);
}
