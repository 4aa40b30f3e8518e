package io.sluice.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * A range of a segment file sent on a TLS connection, where sendfile cannot be used because the bytes must pass
 * through the SSLEngine: Netty's ChunkedWriteHandler asks for one chunk at a time, each read with one positional
 * {@link FileChannel#read} straight into one pooled direct buffer, which the SslHandler encrypts and releases. So
 * the record bytes are copied once (file to direct buffer), never through the heap, and a connection holds at most a
 * chunk of them at a time however large the fetch. Unlike Netty's ChunkedNioFile it never closes the channel: segment
 * files belong to the log.
 *
 * <p>Not thread-safe; read by the connection's event loop only.
 */
public final class SegmentChunkedInput implements ChunkedInput<ByteBuf> {
    /** Four TLS records of 16 KiB: large enough for few wrap calls, small enough to keep per-connection memory low. */
    static final int CHUNK_BYTES = 64 * 1024;

    private final FileChannel file;
    private final long position;
    private final long count;
    private long transferred;

    public SegmentChunkedInput(FileChannel file, long position, long count) {
        this.file = file;
        this.position = position;
        this.count = count;
    }

    @Override
    public boolean isEndOfInput() {
        return transferred >= count;
    }

    @Override
    public void close() {
        // The segment file belongs to the log.
    }

    @Deprecated
    @Override
    public ByteBuf readChunk(ChannelHandlerContext ctx) throws IOException {
        return readChunk(ctx.alloc());
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) throws IOException {
        if (isEndOfInput()) {
            return null;
        }
        int length = (int) Math.min(CHUNK_BYTES, count - transferred);
        ByteBuf chunk = allocator.directBuffer(length);
        try {
            while (chunk.writerIndex() < length) {
                int read = chunk.writeBytes(
                        file, position + transferred + chunk.writerIndex(), length - chunk.writerIndex());
                if (read < 0) {
                    throw new IOException("segment file shrank below the fetched range [" + position + ", "
                            + (position + count) + ") while it was being sent");
                }
            }
            transferred += length;
            return chunk;
        } catch (IOException | RuntimeException e) {
            chunk.release();
            throw e;
        }
    }

    @Override
    public long length() {
        return count;
    }

    @Override
    public long progress() {
        return transferred;
    }
}
