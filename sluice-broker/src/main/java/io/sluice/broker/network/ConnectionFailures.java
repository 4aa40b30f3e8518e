package io.sluice.broker.network;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GenericFutureListener;

/**
 * Makes a failure of a connection's scheduled task (a throttled answer, an unmute) an error of the connection: Netty
 * keeps a scheduled task's exception in its future and logs nothing, so without this it would be lost. The pipeline's
 * exceptionCaught (RequestChannelHandler) logs it and closes the connection. Stateless; thread-safe.
 */
final class ConnectionFailures {
    private ConnectionFailures() {}

    /** A listener that passes a failed (not cancelled) task's cause to the pipeline of {@code ctx}'s channel. */
    static GenericFutureListener<Future<Object>> toExceptionCaught(ChannelHandlerContext ctx) {
        return done -> {
            if (!done.isSuccess() && !done.isCancelled()) {
                ctx.channel().pipeline().fireExceptionCaught(done.cause());
            }
        };
    }
}
