package io.sluice.broker.network;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GenericFutureListener;

/**
 * Makes a failure of a connection's write or scheduled task (a throttled answer, an unmute) an error of the connection:
 * Netty keeps a scheduled task's exception in its future and logs nothing, so without this it would be lost. The
 * pipeline's exceptionCaught (RequestChannelHandler) logs it and closes the connection. A failure on a connection
 * already closed (an answer to a client that hung up) is dropped: there is nothing left to close, and Netty empties a
 * closed channel's pipeline, so the failure would otherwise reach its tail and be logged as unhandled.
 *
 * <p>Stateless; thread-safe.
 */
final class ConnectionFailures {
    /** For a write's future: a failed write on a connection still open is an error of the connection. */
    static final ChannelFutureListener WRITE_FAILURE_TO_PIPELINE = written -> {
        if (!written.isSuccess() && written.channel().isOpen()) {
            written.channel().pipeline().fireExceptionCaught(written.cause());
        }
    };

    private ConnectionFailures() {}

    /** A listener that passes a failed (not cancelled) task's cause to the pipeline of {@code ctx}'s open channel. */
    static GenericFutureListener<Future<Object>> toExceptionCaught(ChannelHandlerContext ctx) {
        return done -> {
            if (!done.isSuccess() && !done.isCancelled() && ctx.channel().isOpen()) {
                ctx.channel().pipeline().fireExceptionCaught(done.cause());
            }
        };
    }
}
