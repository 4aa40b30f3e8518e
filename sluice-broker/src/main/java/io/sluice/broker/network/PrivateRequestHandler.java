package io.sluice.broker.network;

import io.netty.channel.ChannelHandlerContext;
import java.nio.ByteBuffer;

/**
 * Handles a Sluice-private request on the Kafka listener: an API key outside Kafka's ids, registered with
 * {@link ApiRegistry#registerPrivate}, never advertised in ApiVersions, taken before Kafka header parsing.
 * Implementations must be thread-safe: every connection's request thread calls them.
 */
public interface PrivateRequestHandler {

    /**
     * Handles one request frame and writes its answer to {@code ctx} (now or later). {@code frame} holds the frame
     * without its size prefix (the API key at its position 0) and is valid only during the call.
     *
     * @throws RuntimeException to have the connection closed
     */
    void handle(ChannelHandlerContext ctx, ByteBuffer frame);
}
