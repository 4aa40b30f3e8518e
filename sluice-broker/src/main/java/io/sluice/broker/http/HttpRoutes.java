package io.sluice.broker.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the HTTP listener's requests: {@code GET /metrics} (and HEAD) with a Prometheus scrape written by the
 * Prometheus client's own text-format writer; 404 for any other path, 405 for any other method, and for requests
 * the codec could not take (too long, malformed) 414, 431 or 400, closing the connection.
 *
 * <p>Sharable and thread-safe: it keeps no per-connection state.
 */
@ChannelHandler.Sharable
final class HttpRoutes extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(HttpRoutes.class);
    static final String METRICS_PATH = "/metrics";

    private final PrometheusRegistry registry;
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    HttpRoutes(PrometheusRegistry registry) {
        this.registry = registry;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (request.decoderResult().isFailure()) {
            Throwable cause = request.decoderResult().cause();
            HttpResponseStatus status = cause instanceof TooLongHttpLineException ? HttpResponseStatus.REQUEST_URI_TOO_LONG
                    : cause instanceof TooLongHttpHeaderException ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
                    : cause instanceof TooLongFrameException ? HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE
                    : HttpResponseStatus.BAD_REQUEST;
            LOG.debug("Refusing an HTTP request from {}: {}", ctx.channel().remoteAddress(), cause.toString());
            sendAndClose(ctx, text(status, status.reasonPhrase() + "\n"));
            return;
        }
        String path = new QueryStringDecoder(request.uri()).path();
        if (!METRICS_PATH.equals(path)) {
            send(ctx, request, text(HttpResponseStatus.NOT_FOUND, "No such page: only " + METRICS_PATH + " is served\n"));
            return;
        }
        boolean head = HttpMethod.HEAD.equals(request.method());
        if (!HttpMethod.GET.equals(request.method()) && !head) {
            FullHttpResponse refused = text(HttpResponseStatus.METHOD_NOT_ALLOWED, "Only GET is allowed\n");
            refused.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            send(ctx, request, refused);
            return;
        }
        ByteBuf body = ctx.alloc().buffer();
        try (ByteBufOutputStream out = new ByteBufOutputStream(body)) {
            writer.write(out, registry.scrape());
        } catch (IOException | RuntimeException e) {
            body.release();
            LOG.warn("Writing a Prometheus scrape failed", e);
            send(ctx, request, text(HttpResponseStatus.INTERNAL_SERVER_ERROR, "Scrape failed\n"));
            return;
        }
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                head ? Unpooled.EMPTY_BUFFER : body);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, writer.getContentType());
        HttpUtil.setContentLength(response, body.readableBytes());
        if (head) {
            body.release();
        }
        send(ctx, request, response);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("Closing HTTP connection from {}", ctx.channel().remoteAddress(), cause);
        ctx.close();
    }

    private static FullHttpResponse text(HttpResponseStatus status, String message) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(message, StandardCharsets.UTF_8));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        HttpUtil.setContentLength(response, response.content().readableBytes());
        return response;
    }

    private static void send(ChannelHandlerContext ctx, FullHttpRequest request, FullHttpResponse response) {
        if (HttpUtil.isKeepAlive(request)) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        } else {
            sendAndClose(ctx, response);
        }
    }

    private static void sendAndClose(ChannelHandlerContext ctx, FullHttpResponse response) {
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
}
