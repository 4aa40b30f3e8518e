package io.sluice.broker.network;

import org.apache.kafka.common.protocol.ApiMessage;

/**
 * Accounts each answered request against the client quotas of its principal and client id (KIP-13, KIP-124) and says
 * how long the connection is throttled: the connection sends the (possibly replaced) response at once with that
 * {@code throttle_time_ms} and then reads nothing from the client for that long (KIP-219). The broker's quota manager
 * implements it; {@link #NONE} throttles nothing.
 *
 * <p>Implementations are thread-safe; {@link #active()} runs for every request and must cost one volatile read.
 */
public interface RequestThrottler {
    RequestThrottler NONE = new RequestThrottler() {
        @Override
        public boolean active() {
            return false;
        }

        @Override
        public Throttled account(
                RequestContext context,
                boolean fromFollower,
                int requestBytes,
                long handlerNanos,
                ApiMessage response) {
            return new Throttled(response, 0);
        }
    };

    /** The response to send (null: none, as for acks=0) and how long to mute the connection after it, in ms. */
    record Throttled(ApiMessage response, int throttleMs) {}

    /** False while no quota is set: the connection then skips {@link #account} and the timing it needs. */
    boolean active();

    /**
     * Records the request and its response against the quotas and sets the throttle time into the response.
     *
     * @param fromFollower a follower replica's fetch (exempt, as in Kafka)
     * @param requestBytes the request's size (header and body), what a produce quota counts
     * @param handlerNanos time the request spent on its request-handler thread, what a request quota counts
     * @param response     the response, null when the protocol sends none
     */
    Throttled account(
            RequestContext context, boolean fromFollower, int requestBytes, long handlerNanos, ApiMessage response);
}
