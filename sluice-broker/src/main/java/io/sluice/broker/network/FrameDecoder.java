package io.sluice.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits the byte stream of one connection into Kafka request frames (a 4-byte big-endian size,
 * then that many bytes). A negative size or one above {@code socket.request.max.bytes} closes the
 * connection before anything is allocated for the frame, as Kafka's broker does; before a SASL login completes the
 * limit is {@code sasl.server.max.receive.size} (CVE-2022-34917).
 *
 * <p>Not thread-safe; one per connection (runs on the connection's event loop).
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(FrameDecoder.class);
    static final int SIZE_PREFIX_LENGTH = Integer.BYTES;

    /** Raised once when a SASL login completes; read by the event loop, written by the request executor. */
    private volatile int maxFrameBytes;

    private volatile String limitName;

    public FrameDecoder(int maxFrameBytes) {
        this(maxFrameBytes, "socket.request.max.bytes");
    }

    /** @param limitName the key the limit comes from, named when a frame exceeds it */
    public FrameDecoder(int maxFrameBytes, String limitName) {
        this.maxFrameBytes = maxFrameBytes;
        this.limitName = limitName;
    }

    /** Sets a new frame limit (after authentication: socket.request.max.bytes instead of sasl.server.max.receive.size). */
    void limit(int maxFrameBytes, String limitName) {
        this.limitName = limitName;
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= SIZE_PREFIX_LENGTH) {
            int frameSize = in.getInt(in.readerIndex());
            int max = maxFrameBytes;
            if (frameSize < 0 || frameSize > max) {
                LOG.warn(
                        "Closing connection from {}: request frame size {} is outside [0, {}] ({})",
                        ctx.channel().remoteAddress(),
                        frameSize,
                        max,
                        limitName);
                in.skipBytes(in.readableBytes());
                var unused = ctx.close(); // closing is the whole answer; a close that fails leaves nothing more to do
                return;
            }
            if (in.readableBytes() < SIZE_PREFIX_LENGTH + frameSize) {
                return;
            }
            in.skipBytes(SIZE_PREFIX_LENGTH);
            out.add(in.readRetainedSlice(frameSize));
        }
    }
}
