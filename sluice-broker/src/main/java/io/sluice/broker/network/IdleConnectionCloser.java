package io.sluice.broker.network;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Kafka's {@code connections.max.idle.ms}: closes a connection that has read nothing and been given nothing to write
 * for that long. A read or a write only sets a flag (no clock read, no listener on the write's promise, which on a
 * busy connection would be one more task per response); a check every quarter of the limit turns the flag into a
 * time, so a connection closes between 1 and 1.25 times the limit after its last activity. A connection with bytes
 * still waiting to be sent (a slow reader of a large response) is not idle.
 *
 * <p>Not thread-safe: one instance per connection, every method on the connection's event loop.
 */
final class IdleConnectionCloser extends ChannelDuplexHandler {
    private final long maxIdleNanos;
    private final long checkEveryNanos;
    /** Whether anything was read or written since the last check. */
    private boolean active;
    /** The check at which activity was last seen (or the start). */
    private long lastActiveNanos;

    private ScheduledFuture<?> nextCheck;

    IdleConnectionCloser(long maxIdleMs) {
        if (maxIdleMs <= 0) {
            throw new IllegalArgumentException("connections.max.idle.ms must be positive to close idle connections");
        }
        this.maxIdleNanos = TimeUnit.MILLISECONDS.toNanos(maxIdleMs);
        this.checkEveryNanos = Math.max(1, maxIdleNanos / 4);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        stop();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        active = true;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        active = true;
        ctx.write(msg, promise);
    }

    private void start(ChannelHandlerContext ctx) {
        if (nextCheck == null) {
            lastActiveNanos = System.nanoTime();
            schedule(ctx);
        }
    }

    private void stop() {
        if (nextCheck != null) {
            nextCheck.cancel(false);
        }
    }

    private void schedule(ChannelHandlerContext ctx) {
        nextCheck = ctx.executor().schedule(() -> check(ctx), checkEveryNanos, TimeUnit.NANOSECONDS);
    }

    private void check(ChannelHandlerContext ctx) {
        if (!ctx.channel().isOpen()) {
            return;
        }
        long now = System.nanoTime();
        ChannelOutboundBuffer unsent = ctx.channel().unsafe().outboundBuffer();
        if (active || (unsent != null && unsent.totalPendingWriteBytes() > 0)) {
            active = false;
            lastActiveNanos = now;
        } else if (now - lastActiveNanos >= maxIdleNanos) {
            var unused = ctx.close(); // an idle connection ends; a close that fails leaves nothing more to do
            return;
        }
        schedule(ctx);
    }
}
