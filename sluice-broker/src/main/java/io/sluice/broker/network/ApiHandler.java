package io.sluice.broker.network;

import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.protocol.ApiMessage;

/**
 * Answers one Kafka API. The returned future completes with the response body, or with
 * {@code null} when the protocol sends no response (produce with acks=0). Handlers must be done
 * with the request's bytes when {@code handle} returns: the frame is released right after.
 *
 * <p>Implementations are thread-safe: any handler thread may call them.
 */
@FunctionalInterface
public interface ApiHandler<R extends ApiMessage> {
    CompletableFuture<ApiMessage> handle(RequestContext context, R request) throws Exception;
}
