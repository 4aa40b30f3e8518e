package io.sluice.broker.network;

import static io.sluice.broker.move.MoveFrameDescriptor.CORRELATION_ID_LENGTH;
import static io.sluice.broker.move.MoveFrameDescriptor.HEADER_LENGTH_LENGTH;
import static io.sluice.broker.move.MoveFrameDescriptor.RESPONSE_HEADER_OFFSET;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;
import io.sluice.broker.move.InboundMoveConnection;
import io.sluice.broker.move.MoveAnswer;
import io.sluice.broker.move.MoveFrameDescriptor;
import io.sluice.broker.move.MoveSource;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Puts the source side of partition moves ({@link MoveSource}) on the Kafka listener as private API
 * {@link MoveFrameDescriptor#API_KEY}: hands it each request frame and writes its answer: size, correlation id,
 * header length, header, then the file range by sendfile ({@link SegmentFileRegion}), or under TLS all of it in chunks
 * that the SslHandler encrypts ({@link SegmentChunkedInput}). Answers a throttle holds back keep the connection's request order.
 *
 * <p>Thread-safe: called on the request threads (the only state is a per-connection attribute, synchronized); an
 * answer is written on the connection's event loop as one task.
 */
public final class MoveSourceHandler implements PrivateRequestHandler {
    /** A transfer connection's answers held back by a throttle, so later answers queue behind them. */
    private static final AttributeKey<HeldAnswers> HELD_ANSWERS = AttributeKey.valueOf("sluice.move.heldAnswers");

    private final MoveSource source;

    public MoveSourceHandler(MoveSource source) {
        this.source = source;
    }

    @Override
    public void handle(ChannelHandlerContext ctx, ByteBuffer frame) {
        answer(ctx, source.handle(new ChannelConnection(ctx.channel()), frame), source.socketSendBufferBytes());
    }

    private static void answer(ChannelHandlerContext ctx, MoveAnswer answer, int sendBufferBytes) {
        ByteBuffer header = answer.header();
        int length = answer.length();
        int headerLength = header.remaining();
        ByteBuf head = ctx.alloc().directBuffer(RESPONSE_HEADER_OFFSET + headerLength);
        head.writeInt(CORRELATION_ID_LENGTH + HEADER_LENGTH_LENGTH + headerLength + length);
        head.writeInt(answer.correlationId());
        head.writeInt(headerLength);
        head.writeBytes(header);
        // Runs on the channel's event loop as one task (from this handler's request thread each write and the flush
        // would be a task of their own). A chunk that fails to go out ends the transfer connection (exceptionCaught
        // closes it); the target resumes. Written as a zero-copy fetch response is, with the same promise type and
        // listener: a void promise here was the first one the pipeline's compiled write and flush paths met, and the
        // JIT threw them away and compiled them again (about 2 s of C2) in the middle of a broker's first move.
        Runnable write = () -> {
            if (length == 0) {
                ctx.write(head).addListener(ConnectionFailures.WRITE_FAILURE_TO_PIPELINE);
            } else if (ctx.pipeline().get(SslHandler.class) == null) {
                var unused = ctx.write(head); // a failure fails the region's write after it too
                ctx.write(new SegmentFileRegion(answer.file(), answer.position(), length))
                        .addListener(ConnectionFailures.WRITE_FAILURE_TO_PIPELINE);
            } else {
                // sendfile cannot pass through TLS: there the head and the bytes are read into whole chunks and
                // encrypted from them
                ctx.write(new SegmentChunkedInput(
                                List.of(head, new FileSliceRecords(answer.file(), answer.position(), length))))
                        .addListener(ConnectionFailures.WRITE_FAILURE_TO_PIPELINE);
            }
            ctx.flush();
        };
        Runnable send = () -> {
            EventLoop loop = ctx.channel().eventLoop();
            if (loop.inEventLoop()) {
                write.run();
                return;
            }
            try {
                loop.execute(write);
            } catch (RejectedExecutionException e) { // the event loop is shutting down: the connection goes with it
                head.release();
            }
        };
        long waitNanos = length > 0 ? answer.limiter().reserveNanos(length) : 0;
        // Answers leave in request order: one never overtakes an earlier answer still held back by the throttle.
        Attribute<HeldAnswers> heldAttribute = ctx.channel().attr(HELD_ANSWERS);
        HeldAnswers held = heldAttribute.get();
        if (held == null) {
            held = new HeldAnswers();
            heldAttribute.set(held);
            if (sendBufferBytes >= 0) {
                // the first answer on this connection: from here on it carries chunks of segment files
                ctx.channel().config().setOption(ChannelOption.SO_SNDBUF, sendBufferBytes);
            }
        }
        long holdNanos = held.hold(waitNanos, System.nanoTime());
        if (holdNanos >= 0) {
            HeldAnswers queue = held;
            ctx.executor()
                    .schedule(
                            () -> {
                                queue.released();
                                send.run();
                            },
                            holdNanos,
                            TimeUnit.NANOSECONDS)
                    .addListener(ConnectionFailures.toExceptionCaught(ctx));
        } else {
            send.run();
        }
    }

    /**
     * The answers of one transfer connection scheduled for later by a throttle. Thread-safe (synchronized): a request
     * thread holds answers back, the connection's event loop releases them.
     */
    private static final class HeldAnswers {
        private int pending;
        private long lastDueNanos;

        /**
         * How long an answer the throttle asks to wait {@code waitNanos} is held, behind every answer still held; -1
         * when it goes at once (nothing held and no wait).
         */
        synchronized long hold(long waitNanos, long nowNanos) {
            if (pending > 0) {
                waitNanos = Math.max(waitNanos, Math.max(0, lastDueNanos - nowNanos));
            } else if (waitNanos <= 0) {
                return -1;
            }
            pending++;
            lastDueNanos = nowNanos + waitNanos;
            return waitNanos;
        }

        synchronized void released() {
            pending--;
        }
    }

    /**
     * A Netty channel as a move connection; equal for the same channel. A class rather than a record: a record's
     * equals and hashCode run through method handles, which a move's source called cold for every chunk (a source
     * looks its connection up per chunk). Thread-safe.
     */
    private static final class ChannelConnection implements InboundMoveConnection {
        private final Channel channel;

        ChannelConnection(Channel channel) {
            this.channel = channel;
        }

        @Override
        public void whenClosed(Runnable action) {
            channel.closeFuture().addListener(f -> action.run());
        }

        @Override
        public SocketAddress remoteAddress() {
            return channel.remoteAddress();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof ChannelConnection connection && connection.channel == channel;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(channel);
        }

        @Override
        public String toString() {
            return "ChannelConnection[" + channel + "]";
        }
    }
}
