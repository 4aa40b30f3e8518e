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
import io.netty.util.AttributeKey;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the HTTP listener's requests: {@code GET /metrics} (and HEAD) with a Prometheus scrape written by the
 * Prometheus client's own text-format writer, {@code /} and {@code /static/*} with the status page's files,
 * {@code /api/*} with the status JSON ({@link StatusApi}); 404 for any other path, 405 for any method but GET and
 * HEAD, 400 for a URI that cannot be decoded or a bad query, and for requests the codec could not take (too long,
 * malformed) 414, 431, 413 or 400, closing the connection.
 *
 * <p>Sharable and thread-safe: it keeps no per-connection state; JSON answers may complete on another thread and
 * are written through the channel, which Netty hands to its event loop.
 */
@ChannelHandler.Sharable
final class HttpRoutes extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(HttpRoutes.class);
    static final String METRICS_PATH = "/metrics";
    private static final String JSON = "application/json; charset=utf-8";
    /** The page loads only its own files and JSON from this origin; nothing inline, nothing from elsewhere. */
    private static final String PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    /** Set on a connection whose answer completes later; it closes once that answer is sent. */
    private static final AttributeKey<Boolean> ANSWER_PENDING = AttributeKey.valueOf("sluice.http.answerPending");

    private final PrometheusRegistry registry;
    private final StatusApi api;
    private final StaticResources files;
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    /** Null when no login is asked for. */
    private final HttpAuthenticator authenticator;

    HttpRoutes(PrometheusRegistry registry, StatusApi api, StaticResources files) {
        this(registry, api, files, null);
    }

    /** @param authenticator checks every request's Basic login first; null serves everyone */
    HttpRoutes(PrometheusRegistry registry, StatusApi api, StaticResources files, HttpAuthenticator authenticator) {
        this.authenticator = authenticator;
        this.registry = registry;
        this.api = api;
        this.files = files;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (ctx.channel().hasAttr(ANSWER_PENDING)) {
            // A pipelined request behind an answer that completes later: answering it first would reorder the
            // responses, so the connection closes after the pending answer and the client asks again.
            return;
        }
        if (request.decoderResult().isFailure()) {
            Throwable cause = request.decoderResult().cause();
            HttpResponseStatus status = cause instanceof TooLongHttpLineException
                    ? HttpResponseStatus.REQUEST_URI_TOO_LONG
                    : cause instanceof TooLongHttpHeaderException
                            ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
                            : cause instanceof TooLongFrameException
                                    ? HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE
                                    : HttpResponseStatus.BAD_REQUEST;
            LOG.debug("Refusing an HTTP request from {}: {}", ctx.channel().remoteAddress(), cause.toString());
            sendAndClose(ctx, text(status, status.reasonPhrase() + "\n"));
            return;
        }
        if (authenticator != null && !loggedIn(ctx, request)) {
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        String path;
        Map<String, List<String>> parameters;
        try {
            QueryStringDecoder uri = new QueryStringDecoder(request.uri());
            path = uri.path();
            parameters = uri.parameters();
        } catch (IllegalArgumentException e) {
            send(ctx, keepAlive, text(HttpResponseStatus.BAD_REQUEST, "Cannot decode the request URI\n"));
            return;
        }
        StaticResources.Resource file = files.find(path);
        if (!METRICS_PATH.equals(path) && file == null && !api.serves(path)) {
            send(
                    ctx,
                    keepAlive,
                    text(
                            HttpResponseStatus.NOT_FOUND,
                            "No such page: see / for the status page, " + METRICS_PATH + " for metrics and "
                                    + StatusApi.PREFIX + "* for JSON\n"));
            return;
        }
        boolean head = HttpMethod.HEAD.equals(request.method());
        if (!HttpMethod.GET.equals(request.method()) && !head) {
            FullHttpResponse refused = text(HttpResponseStatus.METHOD_NOT_ALLOWED, "Only GET is allowed\n");
            refused.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            send(ctx, keepAlive, refused);
            return;
        }
        if (METRICS_PATH.equals(path)) {
            scrape(ctx, keepAlive, head);
        } else if (file != null) {
            FullHttpResponse response = body(HttpResponseStatus.OK, file.contentType(), file.bytes(), head);
            response.headers().set("Content-Security-Policy", PAGE_POLICY);
            response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache");
            send(ctx, keepAlive, response);
        } else {
            json(ctx, keepAlive, head, path, parameters, request.headers().get(HttpHeaderNames.AUTHORIZATION));
        }
    }

    private void json(
            ChannelHandlerContext ctx,
            boolean keepAlive,
            boolean head,
            String path,
            Map<String, List<String>> parameters,
            String authorization) {
        CompletableFuture<byte[]> answer;
        try {
            answer = api.answer(path, parameters, authenticator == null ? null : authorization);
        } catch (StatusApi.BadRequest e) {
            send(ctx, keepAlive, text(HttpResponseStatus.BAD_REQUEST, e.getMessage() + "\n"));
            return;
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        boolean keepOpen = keepAlive && answer.isDone();
        if (!answer.isDone()) {
            ctx.channel().attr(ANSWER_PENDING).set(Boolean.TRUE);
            ctx.channel().config().setAutoRead(false);
        }
        // The callback answers a failed answer itself, and a failed write reaches exceptionCaught (see send).
        var unused = answer.whenComplete((bytes, failure) -> {
            if (failure != null) {
                LOG.warn("Answering {} failed", path, failure);
                send(ctx, keepOpen, text(HttpResponseStatus.INTERNAL_SERVER_ERROR, "Status unavailable\n"));
                return;
            }
            FullHttpResponse response = body(HttpResponseStatus.OK, JSON, bytes, head);
            response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
            send(ctx, keepOpen, response);
        });
    }

    /**
     * Answers a request without a valid login and returns false: 401 with the Basic challenge when the login is missing
     * or wrong (wrong ones after the failed-login delay, then closed), 400 for a malformed header, 431 for one too long.
     */
    private boolean loggedIn(ChannelHandlerContext ctx, FullHttpRequest request) {
        HttpAuthenticator.Outcome outcome =
                authenticator.check(request.headers().get(HttpHeaderNames.AUTHORIZATION));
        switch (outcome) {
            case ACCEPTED -> {
                return true;
            }
            case MISSING -> send(ctx, HttpUtil.isKeepAlive(request), challenge());
            case REFUSED -> {
                LOG.info("Refused an HTTP login from {}", ctx.channel().remoteAddress());
                ctx.channel().config().setAutoRead(false);
                // A failed write of the delayed challenge reaches exceptionCaught (see sendAndClose).
                var unused = ctx.executor()
                        .schedule(
                                () -> sendAndClose(ctx, challenge()),
                                authenticator.failedDelayMs(),
                                TimeUnit.MILLISECONDS);
            }
            case MALFORMED ->
                sendAndClose(
                        ctx,
                        text(
                                HttpResponseStatus.BAD_REQUEST,
                                "Malformed Authorization header: expected Basic base64(user:password)\n"));
            case TOO_LONG ->
                sendAndClose(
                        ctx,
                        text(
                                HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                                "Authorization header over " + HttpAuthenticator.MAX_AUTHORIZATION_CHARS
                                        + " characters\n"));
        }
        return false;
    }

    private static FullHttpResponse challenge() {
        FullHttpResponse response = text(HttpResponseStatus.UNAUTHORIZED, "Log in with a Kafka user's password\n");
        response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, HttpAuthenticator.CHALLENGE);
        return response;
    }

    private void scrape(ChannelHandlerContext ctx, boolean keepAlive, boolean head) {
        ByteBuf body = ctx.alloc().buffer();
        try (ByteBufOutputStream out = new ByteBufOutputStream(body)) {
            writer.write(out, registry.scrape());
        } catch (IOException | RuntimeException e) {
            body.release();
            LOG.warn("Writing a Prometheus scrape failed", e);
            send(ctx, keepAlive, text(HttpResponseStatus.INTERNAL_SERVER_ERROR, "Scrape failed\n"));
            return;
        }
        FullHttpResponse response = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.OK, head ? Unpooled.EMPTY_BUFFER : body);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, writer.getContentType());
        HttpUtil.setContentLength(response, body.readableBytes());
        if (head) {
            body.release();
        }
        send(ctx, keepAlive, response);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("Closing HTTP connection from {}", ctx.channel().remoteAddress(), cause);
        var unused = ctx.close(); // closing is the whole answer; a close that fails leaves nothing more to do
    }

    /** A response with {@code bytes} as its body, or only its length when answering HEAD. */
    private static FullHttpResponse body(HttpResponseStatus status, String contentType, byte[] bytes, boolean head) {
        FullHttpResponse response = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, status, head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        HttpUtil.setContentLength(response, bytes.length);
        return response;
    }

    private static FullHttpResponse text(HttpResponseStatus status, String message) {
        return body(status, "text/plain; charset=utf-8", message.getBytes(StandardCharsets.UTF_8), false);
    }

    private static void send(ChannelHandlerContext ctx, boolean keepAlive, FullHttpResponse response) {
        response.headers().set("X-Content-Type-Options", "nosniff");
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        } else {
            sendAndClose(ctx, response);
        }
    }

    private static void sendAndClose(ChannelHandlerContext ctx, FullHttpResponse response) {
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(response)
                .addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE)
                .addListener(ChannelFutureListener.CLOSE);
    }
}
