package io.sluice.broker.network;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * {@link ConnectionFailures}: a failed write on an open connection reaches the pipeline's exceptionCaught; a write to a
 * connection the client already closed is dropped, where Netty's own FIRE_EXCEPTION_ON_FAILURE sends it to the tail of
 * the emptied pipeline (which logs it as unhandled; an EmbeddedChannel rethrows it from checkException).
 *
 * <p>Not thread-safe; JUnit runs it on one thread.
 */
class ConnectionFailuresTest {
    @Test
    void shouldDropTheFailedWriteOfAnAnswerToAClosedConnection() {
        EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        channel.close().syncUninterruptibly();

        ChannelFuture written = channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}))
                .addListener(ConnectionFailures.WRITE_FAILURE_TO_PIPELINE);

        assertFalse(written.isSuccess(), "a write to a closed channel fails");
        assertDoesNotThrow(channel::checkException);
    }

    @Test
    void shouldReachTheTailWithNettysListenerOnAClosedConnection() {
        EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        channel.close().syncUninterruptibly();

        var unused = channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}))
                .addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);

        assertThrows(Exception.class, channel::checkException, "what the listener above avoids");
    }

    @Test
    void shouldPassAFailedWriteOnAnOpenConnectionToThePipeline() {
        IOException broken = new IOException("broken pipe");
        Caught caught = new Caught();
        EmbeddedChannel channel = new EmbeddedChannel(
                new ChannelOutboundHandlerAdapter() {
                    @Override
                    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                        io.netty.util.ReferenceCountUtil.release(msg);
                        promise.setFailure(broken);
                    }
                },
                caught);

        var unused = channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}))
                .addListener(ConnectionFailures.WRITE_FAILURE_TO_PIPELINE);

        assertSame(broken, caught.cause, "the write's failure reached exceptionCaught");
        channel.finishAndReleaseAll();
    }

    /** Keeps the first exception that reaches it. */
    private static final class Caught extends ChannelInboundHandlerAdapter {
        Throwable cause;

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (this.cause == null) {
                this.cause = cause;
            }
        }
    }
}
