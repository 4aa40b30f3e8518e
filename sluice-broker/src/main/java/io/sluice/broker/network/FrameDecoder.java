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
 * connection before anything is allocated for the frame, as Kafka's broker does.
 *
 * <p>Not thread-safe; one per connection (runs on the connection's event loop).
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(FrameDecoder.class);
    static final int SIZE_PREFIX_LENGTH = Integer.BYTES;

    private final int maxFrameBytes;

    public FrameDecoder(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= SIZE_PREFIX_LENGTH) {
            int frameSize = in.getInt(in.readerIndex());
            if (frameSize < 0 || frameSize > maxFrameBytes) {
                LOG.warn("Closing connection from {}: request frame size {} is outside [0, {}] (socket.request.max.bytes)",
                        ctx.channel().remoteAddress(), frameSize, maxFrameBytes);
                in.skipBytes(in.readableBytes());
                ctx.close();
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
