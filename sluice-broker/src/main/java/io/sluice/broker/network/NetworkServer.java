package io.sluice.broker.network;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.sluice.broker.security.ListenerSecurity;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;

/**
 * The Kafka listeners: each accepts connections with its own address and security; all frame requests on the same
 * network threads and run them on the same request-handler threads (each connection pinned to one, which keeps its order). A TLS listener puts Netty's
 * SslHandler (JDK engine) first in each pipeline; a SASL listener caps frames at sasl.server.max.receive.size until
 * the connection's login completes.
 *
 * <p>Thread-safe; {@link #close()} may be called from any thread, more than once.
 */
public final class NetworkServer implements AutoCloseable {
    /** How the listener is sized and bounded; values come from the broker configuration. */
    public record Settings(
            String host,
            int port,
            int networkThreads,
            int requestHandlerThreads,
            int maxRequestBytes,
            int sendBufferBytes,
            int receiveBufferBytes,
            long connectionsMaxIdleMs,
            ListenerSecurity security) {
        /** A PLAINTEXT listener. */
        public Settings(
                String host,
                int port,
                int networkThreads,
                int requestHandlerThreads,
                int maxRequestBytes,
                int sendBufferBytes,
                int receiveBufferBytes,
                long connectionsMaxIdleMs) {
            this(
                    host,
                    port,
                    networkThreads,
                    requestHandlerThreads,
                    maxRequestBytes,
                    sendBufferBytes,
                    receiveBufferBytes,
                    connectionsMaxIdleMs,
                    ListenerSecurity.plaintext("PLAINTEXT"));
        }
    }

    private final EventLoopGroup acceptor;
    private final EventLoopGroup network;
    private final EventExecutorGroup handlers;
    /** One bound server channel per listener, in the order the listeners were given. */
    private final Map<String, Channel> serverChannels;
    /** The open client connections, closed before any executor stops so no event is handed to a stopped one. */
    private final ChannelGroup connections;
    /** The network threads in Kafka's processor order (the index is the networkProcessor tag). */
    private final List<Thread> networkThreads;

    private NetworkServer(
            EventLoopGroup acceptor,
            EventLoopGroup network,
            EventExecutorGroup handlers,
            Map<String, Channel> serverChannels,
            ChannelGroup connections,
            List<Thread> networkThreads) {
        this.networkThreads = networkThreads;
        this.acceptor = acceptor;
        this.network = network;
        this.handlers = handlers;
        this.serverChannels = serverChannels;
        this.connections = connections;
    }

    /** Serves one listener. */
    public static NetworkServer start(Settings settings, ApiRegistry registry) throws InterruptedException {
        return start(List.of(settings), registry);
    }

    /**
     * Serves every listener of {@code listeners} (each with its own address and security, named by its
     * {@link ListenerSecurity#listenerName()}) on threads shared by all of them; the first one's thread counts apply.
     */
    public static NetworkServer start(List<Settings> listeners, ApiRegistry registry) throws InterruptedException {
        return start(listeners, registry, ConnectionObserver.NONE);
    }

    /** As {@link #start(List, ApiRegistry)}, telling {@code observer} of every connection opened and closed. */
    public static NetworkServer start(List<Settings> listeners, ApiRegistry registry, ConnectionObserver observer)
            throws InterruptedException {
        Settings first = listeners.get(0);
        EagerNettyClasses.initialize();
        EventLoopGroup acceptor = new NioEventLoopGroup(1, new DefaultThreadFactory("sluice-acceptor", true));
        EventLoopGroup network =
                new NioEventLoopGroup(first.networkThreads(), new DefaultThreadFactory("sluice-network", true));
        EventExecutorGroup handlers = new DefaultEventExecutorGroup(
                first.requestHandlerThreads(), new DefaultThreadFactory("sluice-request-handler", true));
        ChannelGroup connections = new DefaultChannelGroup("sluice-connections", GlobalEventExecutor.INSTANCE);
        Map<String, Channel> bound = new LinkedHashMap<>();
        Map<EventExecutor, Integer> processorOf = new IdentityHashMap<>();
        List<Thread> threads = new ArrayList<>();
        try {
            for (EventExecutor loop : network) {
                processorOf.put(loop, processorOf.size());
                threads.add(
                        loop.submit(Thread::currentThread).syncUninterruptibly().getNow());
            }
            for (Settings settings : listeners) {
                ServerBootstrap bootstrap = new ServerBootstrap()
                        .group(acceptor, network)
                        .channel(NioServerSocketChannel.class)
                        .option(ChannelOption.SO_BACKLOG, 1024)
                        .option(ChannelOption.SO_REUSEADDR, true)
                        .childOption(ChannelOption.TCP_NODELAY, true)
                        .childHandler(
                                connectionSetup(settings, registry, handlers, connections, observer, processorOf));
                bound.put(
                        settings.security().listenerName(),
                        bootstrap.bind(settings.host(), settings.port()).sync().channel());
            }
            return new NetworkServer(
                    acceptor, network, handlers, Collections.unmodifiableMap(bound), connections, List.copyOf(threads));
        } catch (InterruptedException | RuntimeException e) {
            bound.values().forEach(c -> c.close().awaitUninterruptibly());
            // Nothing was served yet: the threads end at once; the failure to start is what the caller hears.
            acceptor.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly();
            network.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly();
            handlers.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly();
            throw e;
        }
    }

    /** The pipeline of each new connection of one listener. */
    private static ChannelInitializer<SocketChannel> connectionSetup(
            Settings settings,
            ApiRegistry registry,
            EventExecutorGroup handlers,
            ChannelGroup connections,
            ConnectionObserver observer,
            Map<EventExecutor, Integer> processorOf) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                connections.add(ch);
                String listenerName = settings.security().listenerName();
                int processor = processorOf.getOrDefault(ch.eventLoop(), 0);
                observer.opened(listenerName, processor);
                ch.closeFuture().addListener(closed -> observer.closed(listenerName, processor));
                if (settings.sendBufferBytes() > 0) {
                    ch.config().setSendBufferSize(settings.sendBufferBytes());
                }
                if (settings.receiveBufferBytes() > 0) {
                    ch.config().setReceiveBufferSize(settings.receiveBufferBytes());
                }
                if (settings.connectionsMaxIdleMs() > 0) {
                    ch.pipeline().addLast("idle", new IdleConnectionCloser(settings.connectionsMaxIdleMs()));
                }
                ListenerSecurity security = settings.security();
                SSLEngine engine = null;
                if (security.usesTls()) {
                    engine = security.newServerEngine();
                    ch.pipeline().addFirst("tls", tlsHandler(engine));
                    ch.pipeline().addAfter("tls", "chunks", new ChunkedWriteHandler());
                }
                ch.pipeline()
                        .addLast(
                                "frames",
                                security.usesSasl()
                                        ? new FrameDecoder(
                                                Math.min(
                                                        settings.maxRequestBytes(),
                                                        security.maxUnauthenticatedFrameBytes()),
                                                "sasl.server.max.receive.size")
                                        : new FrameDecoder(settings.maxRequestBytes()));
                ch.pipeline()
                        .addLast(
                                handlers,
                                "requests",
                                new RequestChannelHandler(
                                        registry, security.newSession(engine), settings.maxRequestBytes()));
            }
        };
    }

    /** The network threads (Netty event loops), index i being Kafka's networkProcessor i. */
    public List<Thread> networkThreads() {
        return networkThreads;
    }

    /** The names of the listeners, in the order they were given. */
    public List<String> listenerNames() {
        return List.copyOf(serverChannels.keySet());
    }

    /**
     * The TLS handler of a connection. It takes a whole {@link SegmentChunkedInput} chunk per wrap: with Netty's
     * default (16 KiB) the JDK engine's TLS 1.3 records left a remainder in front of each next piece, which Netty
     * coalesces by copying. With whole chunks, each holding fields and record bytes together, no record byte is
     * copied before the engine's own copy (SegmentChunkedInputTlsCopyTest).
     */
    static SslHandler tlsHandler(SSLEngine engine) {
        SslHandler tls = new SslHandler(engine);
        tls.setWrapDataSize(SegmentChunkedInput.CHUNK_BYTES);
        return tls;
    }

    /** Where the first listener is bound. */
    public InetSocketAddress boundAddress() {
        return (InetSocketAddress) serverChannels.values().iterator().next().localAddress();
    }

    /** Where the listener named {@code listenerName} is bound, null when there is no such listener. */
    public InetSocketAddress boundAddress(String listenerName) {
        Channel c = serverChannels.get(listenerName);
        return c == null ? null : (InetSocketAddress) c.localAddress();
    }

    /**
     * Stops accepting, closes every connection while all executors still run (their close events reach the request
     * handlers), then stops the request handlers before the network threads their answers are written on.
     */
    @Override
    public void close() {
        serverChannels.values().forEach(c -> c.close().awaitUninterruptibly());
        connections.close().awaitUninterruptibly();
        acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        handlers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        network.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
