package io.sluice.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.sluice.broker.security.ConnectionSession;
import io.sluice.broker.security.ListenerSecurity;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.RequestHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the requests of one connection strictly one after another and answers them in order, as
 * Kafka clients require. A request whose answer is delayed (a long-poll fetch, a group join)
 * holds back the following ones until it is answered. Requests that cannot be parsed, name an
 * unknown API or use a version outside {@link ApiRegistry} close the connection, as Kafka's broker
 * does; an unsupported ApiVersions version gets UNSUPPORTED_VERSION and our ranges (KIP-511). On a SASL listener a
 * connection that has not logged in may send only ApiVersions, SaslHandshake and SaslAuthenticate; anything else
 * closes it. A response with a client-quota throttle time ({@link RequestThrottler}) is sent at once, then nothing more
 * is read or run from the connection until that time has passed (KIP-219's muted channel).
 *
 * <p>Not thread-safe; one per connection, confined to the connection's request executor.
 */
public final class RequestChannelHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(RequestChannelHandler.class);
    private static final int API_KEY_AND_VERSION_LENGTH = Short.BYTES * 2;
    private static final int CORRELATION_ID_POSITION = API_KEY_AND_VERSION_LENGTH;
    private static final int PAUSE_READING_AT_QUEUED = 16;
    private static final short FIRST_FETCH_VERSION_WITH_REPLICA_STATE = 15;
    /**
     * No clock reading at hand: take one. (A real reading equal to it is as good as impossible and would only cost a
     * second reading.)
     */
    private static final long UNREAD = Long.MIN_VALUE;

    private final ApiRegistry registry;
    private final ConnectionSession session;
    private final int maxFrameBytesAfterLogin;
    private final ArrayDeque<ByteBuf> queued = new ArrayDeque<>();
    private final RequestObserver observer;
    private final RequestThrottler throttler;
    /** When each frame in {@link #queued} arrived, in the same order; kept only while the observer is enabled. */
    private final ArrivalTimes arrivals = new ArrivalTimes(PAUSE_READING_AT_QUEUED * 2);

    private boolean awaitingResponse;
    /** Muted for a client quota: no reads and no queued request runs until the throttle time has passed. */
    private boolean throttled;

    private boolean closed;
    private String clientHost = "";
    private String connectionId = "";

    /** A handler for a PLAINTEXT connection. */
    public RequestChannelHandler(ApiRegistry registry) {
        this(registry, ListenerSecurity.plaintext("PLAINTEXT").newSession(null), Integer.MAX_VALUE);
    }

    /**
     * @param session                 the connection's authentication state
     * @param maxFrameBytesAfterLogin the frame limit once a SASL login completes (socket.request.max.bytes)
     */
    public RequestChannelHandler(ApiRegistry registry, ConnectionSession session, int maxFrameBytesAfterLogin) {
        this.registry = registry;
        this.session = session;
        this.maxFrameBytesAfterLogin = maxFrameBytesAfterLogin;
        this.observer = registry.observer();
        this.throttler = registry.throttler();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().remoteAddress() instanceof InetSocketAddress remote) {
            clientHost = remote.getAddress().getHostAddress();
        }
        connectionId = ctx.channel().id().asShortText();
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        if (closed) {
            frame.release();
            return;
        }
        queued.add(frame);
        long arrivedNanos = UNREAD;
        if (observer.enabled()) {
            arrivedNanos = System.nanoTime();
            arrivals.add(arrivedNanos);
        }
        if (queued.size() >= PAUSE_READING_AT_QUEUED) {
            ctx.channel().config().setAutoRead(false);
        }
        drain(ctx, arrivedNanos);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closed = true;
        ByteBuf frame;
        while ((frame = queued.poll()) != null) {
            frame.release();
        }
        arrivals.clear();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("Closing connection {} from {} after an I/O error", connectionId, clientHost, cause);
        var unused = ctx.close(); // closing is the whole answer; a close that fails leaves nothing more to do
    }

    private void drain(ChannelHandlerContext ctx) {
        drain(ctx, UNREAD);
    }

    /** @param nowNanos a clock reading taken just now, which starts the first request run here; or {@link #UNREAD} */
    private void drain(ChannelHandlerContext ctx, long nowNanos) {
        ByteBuf frame;
        long startNanos = nowNanos;
        while (!awaitingResponse && !throttled && !closed && (frame = queued.poll()) != null) {
            long arrivedNanos = observer.enabled() ? arrivals.poll() : 0;
            try {
                PrivateRequestHandler privateHandler = privateHandlerOf(frame);
                if (privateHandler != null) {
                    processPrivate(ctx, frame, privateHandler);
                } else {
                    process(ctx, frame, arrivedNanos, startNanos);
                }
            } finally {
                frame.release();
            }
            startNanos = UNREAD;
        }
        if (!closed
                && !throttled
                && queued.size() < PAUSE_READING_AT_QUEUED
                && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /** The handler of a frame of a private API (a partition move's), null for any other frame. */
    private PrivateRequestHandler privateHandlerOf(ByteBuf frame) {
        return frame.readableBytes() < API_KEY_AND_VERSION_LENGTH + Integer.BYTES
                ? null
                : registry.findPrivate(frame.getShort(frame.readerIndex()));
    }

    /**
     * A frame of a private API, kept apart from {@link #process} (Kafka's requests) so that the JIT compiles each on
     * its own traffic: a partition move's chunk requests neither trip the Kafka path's compiled code nor trigger its
     * recompilation in the middle of a move.
     */
    private void processPrivate(ChannelHandlerContext ctx, ByteBuf frame, PrivateRequestHandler handler) {
        short apiKeyId = frame.getShort(frame.readerIndex());
        if (session.expectsSasl() || session.isExpired()) {
            closeConnection(ctx, "private API " + apiKeyId + " request before SASL authentication");
            return;
        }
        if (!registry.mayUsePrivate(session.principal(), clientHost)) {
            closeConnection(
                    ctx,
                    "private API " + apiKeyId + " needs ClusterAction on the cluster, which " + session.principal()
                            + " lacks");
            return;
        }
        handlePrivate(ctx, handler, apiKeyId, frame.nioBuffer());
    }

    /** @param nowNanos a clock reading taken just now, or {@link #UNREAD} */
    private void process(ChannelHandlerContext ctx, ByteBuf frame, long arrivedNanos, long nowNanos) {
        boolean timed = observer.enabled() || throttler.active();
        long startNanos = !timed ? 0 : nowNanos != UNREAD ? nowNanos : System.nanoTime();
        ByteBuffer bytes = frame.nioBuffer();
        if (bytes.remaining() < API_KEY_AND_VERSION_LENGTH + Integer.BYTES) {
            closeConnection(ctx, "request of " + bytes.remaining() + " bytes is shorter than a request header");
            return;
        }
        short apiKeyId = bytes.getShort(0);
        short apiVersion = bytes.getShort(Short.BYTES);
        if (!ApiKeys.hasId(apiKeyId)) {
            closeConnection(ctx, "unknown API key " + apiKeyId);
            return;
        }
        ApiKeys apiKey = ApiKeys.forId(apiKeyId);
        boolean saslRequest = apiKey == ApiKeys.SASL_HANDSHAKE || apiKey == ApiKeys.SASL_AUTHENTICATE;
        boolean loggingIn = saslRequest && session.handlesSasl();
        if (session.expectsSasl() && !saslRequest && apiKey != ApiKeys.API_VERSIONS) {
            closeConnection(
                    ctx,
                    apiKey + " before SASL authentication (only ApiVersions, SaslHandshake and "
                            + "SaslAuthenticate are allowed)");
            return;
        }
        if (!saslRequest && apiKey != ApiKeys.API_VERSIONS && session.isExpired()) {
            closeConnection(
                    ctx, apiKey + " after the SASL session expired (connections.max.reauth.ms) without a new login");
            return;
        }
        ApiRegistry.Registration registration = registry.find(apiKey);
        if (apiKey == ApiKeys.API_VERSIONS && (registration == null || !registration.supports(apiVersion))) {
            answerUnsupportedApiVersions(ctx, bytes.getInt(CORRELATION_ID_POSITION), apiVersion);
            return;
        }
        if (registration == null || !registration.supports(apiVersion)) {
            closeConnection(
                    ctx,
                    apiKey + " version " + apiVersion + " is not supported"
                            + (registration == null
                                    ? ""
                                    : " (supported: " + registration.minVersion() + "-" + registration.maxVersion()
                                            + ")"));
            return;
        }
        RequestHeader header;
        ApiMessage request;
        try {
            header = RequestHeader.parse(bytes);
            request = apiKey.messageType.newRequest();
            request.read(new ByteBufferAccessor(bytes), apiVersion);
        } catch (RuntimeException e) {
            closeConnection(ctx, "malformed " + apiKey + " v" + apiVersion + " request: " + e.getMessage());
            return;
        }
        if (loggingIn) {
            login(ctx, header, request, apiKey, apiVersion);
            return;
        }
        RequestContext context = new RequestContext(
                header, clientHost, connectionId, session.principal(), session.listenerName(), registry.authorizer());
        boolean fromFollower = apiKey == ApiKeys.FETCH && isFromFollower((FetchRequestData) request, apiVersion);
        CompletableFuture<ApiMessage> response;
        try {
            @SuppressWarnings("unchecked")
            ApiHandler<ApiMessage> handler = (ApiHandler<ApiMessage>) registration.handler();
            response = handler.handle(context, request);
        } catch (Exception e) {
            LOG.error("Handler for {} v{} from {} failed; closing the connection", apiKey, apiVersion, clientHost, e);
            var unused = ctx.close(); // closing is the whole answer; a close that fails leaves nothing more to do
            closed = true;
            return;
        }
        long handledNanos = timed ? System.nanoTime() : 0;
        long queueNanos = startNanos - arrivedNanos;
        long localNanos = handledNanos - startNanos;
        int requestBytes = frame.readableBytes();
        if (response.isDone()) {
            complete(
                    ctx,
                    context,
                    response.getNow(null),
                    null,
                    fromFollower,
                    requestBytes,
                    queueNanos,
                    localNanos,
                    0,
                    handledNanos);
        } else {
            awaitingResponse = true;
            // The handler's failure reaches complete() as error; the future whenComplete returns would only repeat it.
            var unused = response.whenComplete((body, error) -> ctx.executor().execute(() -> {
                awaitingResponse = false;
                long answeredNanos = observer.enabled() ? System.nanoTime() : 0;
                long remoteNanos = answeredNanos - handledNanos;
                complete(
                        ctx,
                        context,
                        body,
                        error,
                        fromFollower,
                        requestBytes,
                        queueNanos,
                        localNanos,
                        remoteNanos,
                        answeredNanos);
                drain(ctx);
            }));
        }
    }

    /** Kafka's FetchFollower: a fetch naming a replica (the field moved into ReplicaState at v15). */
    private static boolean isFromFollower(FetchRequestData fetch, short version) {
        int replicaId = version >= FIRST_FETCH_VERSION_WITH_REPLICA_STATE
                ? fetch.replicaState().replicaId()
                : fetch.replicaId();
        return replicaId >= 0;
    }

    private void handlePrivate(
            ChannelHandlerContext ctx, PrivateRequestHandler handler, short apiKeyId, ByteBuffer bytes) {
        try {
            handler.handle(ctx, bytes);
        } catch (RuntimeException e) {
            closeConnection(ctx, "private API " + apiKeyId + " request failed: " + e.getMessage());
        }
    }

    private void complete(
            ChannelHandlerContext ctx,
            RequestContext context,
            ApiMessage answer,
            Throwable error,
            boolean fromFollower,
            int requestBytes,
            long queueNanos,
            long localNanos,
            long remoteNanos,
            long readyNanos) {
        if (closed) {
            return;
        }
        if (error != null) {
            LOG.error(
                    "Handler for {} v{} from {} failed; closing the connection",
                    context.apiKey(),
                    context.apiVersion(),
                    clientHost,
                    error);
            closeConnection(ctx, "internal error");
            return;
        }
        RequestThrottler.Throttled quota =
                throttler.active() ? throttler.account(context, fromFollower, requestBytes, localNanos, answer) : null;
        ApiMessage body = quota == null ? answer : quota.response();
        if (quota != null && quota.throttleMs() > 0) {
            mute(ctx, quota.throttleMs());
        }
        if (body != null) {
            ChannelFuture written;
            try {
                written = ResponseSender.send(
                        ctx, context.apiKey(), context.header().correlationId(), context.apiVersion(), body);
            } catch (RuntimeException e) {
                LOG.error(
                        "Could not serialize the {} v{} response for {}; closing the connection",
                        context.apiKey(),
                        context.apiVersion(),
                        clientHost,
                        e);
                closeConnection(ctx, "response serialization failed");
                return;
            }
            written.addListener(
                    observer.enabled()
                            ? new ObservingWriteListener(
                                    observer,
                                    context,
                                    fromFollower,
                                    body,
                                    queueNanos,
                                    localNanos,
                                    remoteNanos,
                                    readyNanos)
                            : ConnectionFailures.WRITE_FAILURE_TO_PIPELINE);
        } else if (observer.enabled()) {
            observer.onAnswered(
                    context.apiKey(), context.apiVersion(), fromFollower, null, queueNanos, localNanos, remoteNanos, 0);
        }
    }

    /** KIP-219: nothing is read or run from this connection for {@code throttleMs}; the response still goes out now. */
    private void mute(ChannelHandlerContext ctx, int throttleMs) {
        throttled = true;
        ctx.channel().config().setAutoRead(false);
        ctx.executor()
                .schedule(
                        () -> {
                            throttled = false;
                            drain(ctx);
                        },
                        throttleMs,
                        TimeUnit.MILLISECONDS)
                .addListener(ConnectionFailures.toExceptionCaught(ctx));
    }

    /** One SaslHandshake or SaslAuthenticate of a connection logging in, or in again (KIP-368). */
    private void login(
            ChannelHandlerContext ctx, RequestHeader header, ApiMessage request, ApiKeys apiKey, short apiVersion) {
        ConnectionSession.Step step = apiKey == ApiKeys.SASL_HANDSHAKE
                ? session.handshake((SaslHandshakeRequestData) request, apiVersion, clientHost)
                : session.authenticate((SaslAuthenticateRequestData) request, apiVersion, clientHost);
        if (session.isAuthenticated()) {
            FrameDecoder frames = ctx.pipeline().get(FrameDecoder.class);
            if (frames != null) {
                frames.limit(maxFrameBytesAfterLogin, "socket.request.max.bytes");
            }
        }
        int correlationId = header.correlationId();
        if (!step.close()) {
            ResponseSender.send(ctx, apiKey, correlationId, apiVersion, step.response())
                    .addListener(ConnectionFailures.WRITE_FAILURE_TO_PIPELINE);
            return;
        }
        // Nothing more is read from this connection; the answer goes out (after the failed-login delay), then it
        // closes.
        closed = true;
        ctx.channel().config().setAutoRead(false);
        Runnable answerAndClose = () -> {
            if (ctx.channel().isActive()) {
                // The connection closes next whether or not the answer got out: nothing to handle.
                var unused = ResponseSender.send(ctx, apiKey, correlationId, apiVersion, step.response());
            }
            var unused = ctx.close(); // the connection ends here; a close that fails leaves nothing more to do
        };
        if (step.delayMs() > 0) {
            ctx.executor()
                    .schedule(answerAndClose, step.delayMs(), TimeUnit.MILLISECONDS)
                    .addListener(ConnectionFailures.toExceptionCaught(ctx));
        } else {
            answerAndClose.run();
        }
    }

    private void answerUnsupportedApiVersions(ChannelHandlerContext ctx, int correlationId, short apiVersion) {
        LOG.debug("ApiVersions v{} from {} is not supported; answering with our ranges", apiVersion, clientHost);
        ApiVersionsResponseData body = new ApiVersionsResponseData()
                .setErrorCode(Errors.UNSUPPORTED_VERSION.code())
                .setApiKeys(registry.advertisedVersions());
        ResponseSender.send(ctx, correlationId, (short) 0, (short) 0, body)
                .addListener(ConnectionFailures.WRITE_FAILURE_TO_PIPELINE);
    }

    private void closeConnection(ChannelHandlerContext ctx, String reason) {
        LOG.warn("Closing connection {} from {}: {}", connectionId, clientHost, reason);
        closed = true;
        var unused = ctx.close(); // closing is the whole answer; a close that fails leaves nothing more to do
    }

    /**
     * The one listener of a response's write while requests are observed: as {@link
     * ConnectionFailures#WRITE_FAILURE_TO_PIPELINE}, then the request's report with its send time (one object per
     * response instead of a second listener and the promise's listener list).
     */
    private static final class ObservingWriteListener implements ChannelFutureListener {
        private final RequestObserver observer;
        private final RequestContext context;
        private final boolean fromFollower;
        private final ApiMessage body;
        private final long queueNanos;
        private final long localNanos;
        private final long remoteNanos;
        /** The clock reading at which the answer was ready: the start of its send time. */
        private final long readyNanos;

        ObservingWriteListener(
                RequestObserver observer,
                RequestContext context,
                boolean fromFollower,
                ApiMessage body,
                long queueNanos,
                long localNanos,
                long remoteNanos,
                long readyNanos) {
            this.observer = observer;
            this.context = context;
            this.fromFollower = fromFollower;
            this.body = body;
            this.queueNanos = queueNanos;
            this.localNanos = localNanos;
            this.remoteNanos = remoteNanos;
            this.readyNanos = readyNanos;
        }

        @Override
        public void operationComplete(ChannelFuture written) throws Exception {
            ConnectionFailures.WRITE_FAILURE_TO_PIPELINE.operationComplete(written);
            observer.onAnswered(
                    context.apiKey(),
                    context.apiVersion(),
                    fromFollower,
                    body,
                    queueNanos,
                    localNanos,
                    remoteNanos,
                    System.nanoTime() - readyNanos);
        }
    }
}
