package io.sluice.broker.network;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.PlatformDependent;
import io.sluice.testkit.security.TestSecurity;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * A TLS connection run in one thread to count copies: a server channel with the broker's TLS pipeline
 * ({@link NetworkServer#tlsHandler}, a ChunkedWriteHandler, then the handler whose context answers are sent from with
 * {@link ResponseSender}) over a real JDK engine, handshaken with a client channel (certificates made for the test).
 * It tells by native address how many plaintext bytes reached {@code SSLEngine.wrap} straight from where a segment
 * file read put them: file reads through {@link #open} record the memory they filled, and every buffer allocated on
 * the server channel is held until {@link #close} so no later buffer (a copy) can occupy that memory.
 *
 * <p>Not thread-safe; one test thread.
 */
final class TlsCopyHarness implements AutoCloseable {
    private final EmbeddedChannel server;
    private final EmbeddedChannel client;
    private final WrapSources sources;
    private final HoldingAllocator allocator = new HoldingAllocator();
    private final List<long[]> fileReadRanges = new ArrayList<>();
    private final List<FileChannel> files = new ArrayList<>();

    private TlsCopyHarness(SSLContext context) throws SSLException {
        SSLEngine serverEngine = context.createSSLEngine();
        serverEngine.setUseClientMode(false);
        SSLEngine clientEngine = context.createSSLEngine("localhost", 9093);
        clientEngine.setUseClientMode(true);
        sources = new WrapSources(serverEngine, fileReadRanges);
        server = new EmbeddedChannel();
        server.config().setAllocator(allocator);
        server.pipeline()
                .addLast("tls", NetworkServer.tlsHandler(sources))
                .addLast("chunks", new ChunkedWriteHandler())
                .addLast("requests", new ChannelInboundHandlerAdapter());
        client = new EmbeddedChannel(new SslHandler(clientEngine));
        for (int i = 0; i < 20 && !sources.handshakeDone(); i++) {
            pass(client, server);
            pass(server, client);
        }
        if (!sources.handshakeDone()) {
            throw new SSLException("the test handshake did not complete");
        }
    }

    /** A connection after its handshake over {@code protocol} (TLSv1.3, TLSv1.2) with the broker's certificate. */
    static TlsCopyHarness connect(TestSecurity security, String protocol) throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(load(security.brokerKeyStore()), TestSecurity.STORE_PASSWORD.toCharArray());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(load(security.trustStore()));
        SSLContext context = SSLContext.getInstance(protocol);
        context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return new TlsCopyHarness(context);
    }

    /** The segment file, its reads recorded; closed with the harness. */
    FileChannel open(Path segment) throws IOException {
        FileChannel file = new RecordedFile(FileChannel.open(segment), fileReadRanges);
        files.add(file);
        return file;
    }

    /** Sends a fetch answer as the broker does and returns the plaintext the client decrypted. */
    byte[] send(FetchResponseData body, short version, int correlationId) {
        ChannelHandlerContext requests = server.pipeline().context("requests");
        ChannelFuture sent = ResponseSender.send(requests, ApiKeys.FETCH, correlationId, version, body);
        server.runPendingTasks();
        pass(server, client);
        if (!sent.isSuccess()) {
            // The embedded channels run every write to its end on this thread: by now the answer is written or failed.
            throw new IllegalStateException("the fetch answer was not written whole", sent.cause());
        }
        ByteArrayOutputStream plaintext = new ByteArrayOutputStream();
        Object in;
        while ((in = client.readInbound()) != null) {
            ByteBuf buf = (ByteBuf) in;
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            plaintext.write(bytes, 0, bytes.length);
            buf.release();
        }
        return plaintext.toByteArray();
    }

    /** Plaintext bytes the server's engine wrapped since the handshake. */
    long bytesWrapped() {
        return sources.wrapped;
    }

    /** Of those, the bytes wrapped from the memory a segment file read had put them in. */
    long bytesWrappedWhereTheFileReadPutThem() {
        return sources.wrappedInPlace;
    }

    @Override
    public void close() throws IOException {
        server.finishAndReleaseAll();
        client.finishAndReleaseAll();
        allocator.releaseHeld();
        for (FileChannel file : files) {
            file.close();
        }
    }

    private static KeyStore load(Path store) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, TestSecurity.STORE_PASSWORD.toCharArray());
        }
        return ks;
    }

    private static void pass(EmbeddedChannel from, EmbeddedChannel to) {
        Object msg;
        while ((msg = from.readOutbound()) != null) {
            to.writeInbound(msg);
        }
        to.runPendingTasks();
        from.runPendingTasks();
    }

    /** Pooled buffers, each held (retained once more) until the test ends, so memory is never handed out twice. */
    private static final class HoldingAllocator extends AbstractByteBufAllocator {
        private final List<ByteBuf> held = new ArrayList<>();

        HoldingAllocator() {
            super(true);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            return hold(PooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, maxCapacity));
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return hold(PooledByteBufAllocator.DEFAULT.directBuffer(initialCapacity, maxCapacity));
        }

        private ByteBuf hold(ByteBuf buffer) {
            held.add(buffer.retain());
            return buffer;
        }

        @Override
        public boolean isDirectBufferPooled() {
            return true;
        }

        void releaseHeld() {
            held.forEach(ReferenceCountUtil::release);
            held.clear();
        }
    }

    /** Counts the plaintext each wrap consumed, and how much of it lay where a file read had put it. */
    private static final class WrapSources extends DelegatingSslEngine {
        private final List<long[]> fileReadRanges;
        long wrapped;
        long wrappedInPlace;

        WrapSources(SSLEngine engine, List<long[]> fileReadRanges) {
            super(engine);
            this.fileReadRanges = fileReadRanges;
        }

        boolean handshakeDone() {
            String suite = getSession().getCipherSuite();
            return getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING
                    && getSession().isValid()
                    && suite != null
                    && !suite.equals("SSL_NULL_WITH_NULL_NULL");
        }

        @Override
        public SSLEngineResult wrap(ByteBuffer[] srcs, int offset, int length, ByteBuffer dst) throws SSLException {
            long[] remaining = new long[length];
            long[] addresses = new long[length];
            for (int i = 0; i < length; i++) {
                ByteBuffer src = srcs[offset + i];
                remaining[i] = src.remaining();
                addresses[i] = src.isDirect() ? PlatformDependent.directBufferAddress(src) + src.position() : 0;
            }
            SSLEngineResult result = super.wrap(srcs, offset, length, dst);
            if (!handshakeDone()) {
                return result;
            }
            for (int i = 0; i < length; i++) {
                long consumed = remaining[i] - srcs[offset + i].remaining();
                wrapped += consumed;
                if (addresses[i] != 0) {
                    for (long[] range : fileReadRanges) {
                        long from = Math.max(range[0], addresses[i]);
                        long to = Math.min(range[1], addresses[i] + consumed);
                        wrappedInPlace += Math.max(0, to - from);
                    }
                }
            }
            return result;
        }
    }

    /** A segment file recording the native memory each positional read filled. */
    private static final class RecordedFile extends FileChannel {
        private final FileChannel file;
        private final List<long[]> readRanges;

        RecordedFile(FileChannel file, List<long[]> readRanges) {
            this.file = file;
            this.readRanges = readRanges;
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            long address = dst.isDirect() ? PlatformDependent.directBufferAddress(dst) + dst.position() : 0;
            int read = file.read(dst, position);
            if (address != 0 && read > 0) {
                readRanges.add(new long[] {address, address + read});
            }
            return read;
        }

        @Override
        public int read(ByteBuffer dst) {
            throw new UnsupportedOperationException("segment ranges are read by position");
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) {
            throw new UnsupportedOperationException("segment ranges are read by position");
        }

        @Override
        public int write(ByteBuffer src) {
            throw new UnsupportedOperationException("read only");
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            throw new UnsupportedOperationException("read only");
        }

        @Override
        public int write(ByteBuffer src, long position) {
            throw new UnsupportedOperationException("read only");
        }

        @Override
        public long position() throws IOException {
            return file.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            file.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return file.size();
        }

        @Override
        public FileChannel truncate(long size) {
            throw new UnsupportedOperationException("read only");
        }

        @Override
        public void force(boolean metaData) throws IOException {
            file.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) {
            throw new UnsupportedOperationException("no sendfile under TLS");
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) {
            throw new UnsupportedOperationException("read only");
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) {
            throw new UnsupportedOperationException("not mapped");
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) {
            throw new UnsupportedOperationException("not locked");
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) {
            throw new UnsupportedOperationException("not locked");
        }

        @Override
        protected void implCloseChannel() throws IOException {
            file.close();
        }
    }

    /** An SSLEngine passing everything to another one. */
    private static class DelegatingSslEngine extends SSLEngine {
        private final SSLEngine engine;

        DelegatingSslEngine(SSLEngine engine) {
            this.engine = engine;
        }

        @Override
        public SSLEngineResult wrap(ByteBuffer[] srcs, int offset, int length, ByteBuffer dst) throws SSLException {
            return engine.wrap(srcs, offset, length, dst);
        }

        @Override
        public SSLEngineResult unwrap(ByteBuffer src, ByteBuffer[] dsts, int offset, int length) throws SSLException {
            return engine.unwrap(src, dsts, offset, length);
        }

        @Override
        public Runnable getDelegatedTask() {
            return engine.getDelegatedTask();
        }

        @Override
        public void closeInbound() throws SSLException {
            engine.closeInbound();
        }

        @Override
        public boolean isInboundDone() {
            return engine.isInboundDone();
        }

        @Override
        public void closeOutbound() {
            engine.closeOutbound();
        }

        @Override
        public boolean isOutboundDone() {
            return engine.isOutboundDone();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return engine.getSupportedCipherSuites();
        }

        @Override
        public String[] getEnabledCipherSuites() {
            return engine.getEnabledCipherSuites();
        }

        @Override
        public void setEnabledCipherSuites(String[] suites) {
            engine.setEnabledCipherSuites(suites);
        }

        @Override
        public String[] getSupportedProtocols() {
            return engine.getSupportedProtocols();
        }

        @Override
        public String[] getEnabledProtocols() {
            return engine.getEnabledProtocols();
        }

        @Override
        public void setEnabledProtocols(String[] protocols) {
            engine.setEnabledProtocols(protocols);
        }

        @Override
        public SSLSession getSession() {
            return engine.getSession();
        }

        @Override
        public SSLSession getHandshakeSession() {
            return engine.getHandshakeSession();
        }

        @Override
        public void beginHandshake() throws SSLException {
            engine.beginHandshake();
        }

        @Override
        public SSLEngineResult.HandshakeStatus getHandshakeStatus() {
            return engine.getHandshakeStatus();
        }

        @Override
        public void setUseClientMode(boolean mode) {
            engine.setUseClientMode(mode);
        }

        @Override
        public boolean getUseClientMode() {
            return engine.getUseClientMode();
        }

        @Override
        public void setNeedClientAuth(boolean need) {
            engine.setNeedClientAuth(need);
        }

        @Override
        public boolean getNeedClientAuth() {
            return engine.getNeedClientAuth();
        }

        @Override
        public void setWantClientAuth(boolean want) {
            engine.setWantClientAuth(want);
        }

        @Override
        public boolean getWantClientAuth() {
            return engine.getWantClientAuth();
        }

        @Override
        public void setEnableSessionCreation(boolean flag) {
            engine.setEnableSessionCreation(flag);
        }

        @Override
        public boolean getEnableSessionCreation() {
            return engine.getEnableSessionCreation();
        }
    }
}
