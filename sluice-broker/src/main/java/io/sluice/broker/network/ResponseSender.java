package io.sluice.broker.network;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.SslHandler;
import java.util.List;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.MessageSizeAccumulator;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

/**
 * Frames a response (size prefix, response header, body) and writes it to the connection as
 * buffers plus zero-copy file regions (chunked file reads under TLS, where sendfile cannot be used).
 *
 * <p>Stateless; safe to share between threads.
 */
final class ResponseSender {
    private ResponseSender() {}

    /** Writes the response; the returned future completes once the connection took all of it. */
    static ChannelFuture send(
            ChannelHandlerContext ctx, ApiKeys apiKey, int correlationId, short apiVersion, ApiMessage body) {
        short headerVersion = apiKey.responseHeaderVersion(apiVersion);
        return send(ctx, correlationId, headerVersion, apiVersion, body);
    }

    static ChannelFuture send(
            ChannelHandlerContext ctx, int correlationId, short headerVersion, short apiVersion, ApiMessage body) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlationId);
        MessageSizeAccumulator size = new MessageSizeAccumulator();
        header.addSize(size, cache, headerVersion);
        body.addSize(size, cache, apiVersion);
        boolean zeroCopy = ctx.pipeline().get(SslHandler.class) == null;
        ResponseWritable out = new ResponseWritable(
                ctx.alloc(), size.sizeExcludingZeroCopy() + FrameDecoder.SIZE_PREFIX_LENGTH, zeroCopy);
        List<Object> parts;
        try {
            out.writeInt(size.totalSize());
            header.write(out, cache, headerVersion);
            body.write(out, cache, apiVersion);
            parts = out.finish();
        } catch (RuntimeException e) {
            out.discard();
            throw e;
        }
        ChannelFuture lastWrite = null;
        for (Object part : parts) {
            lastWrite = ctx.write(part);
        }
        ctx.flush();
        return lastWrite;
    }
}
