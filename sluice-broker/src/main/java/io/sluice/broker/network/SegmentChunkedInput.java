package io.sluice.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;
import io.netty.util.AbstractReferenceCounted;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.List;

/**
 * An answer, or the part of one, with ranges of segment files sent on a TLS connection, where sendfile cannot be used
 * because the bytes must pass through the SSLEngine: its protocol fields (buffers) and file ranges, in order, cut into
 * whole chunks of {@link #CHUNK_BYTES}. Netty's ChunkedWriteHandler asks for one chunk at a time; the fields are
 * copied in and the file bytes read straight in with positional {@link FileChannel#read}s, into one pooled direct
 * buffer that the SslHandler encrypts from and releases. So the record bytes are copied once (file to chunk), never
 * through the heap, a connection holds at most a chunk of them at a time however large the fetch, and each chunk is
 * wrapped on its own, never coalesced by copying, whether it holds part of one large record set or many small ones
 * with their fields. Unlike Netty's ChunkedNioFile it never closes a file: segment files belong to the log.
 *
 * <p>Reference counted so that a write that never reaches the ChunkedWriteHandler releases the field buffers;
 * {@link #close()} releases them too. Not thread-safe; read by the connection's event loop only.
 */
public final class SegmentChunkedInput extends AbstractReferenceCounted implements ChunkedInput<ByteBuf> {
    /**
     * The chunk size, and the SslHandler's wrap size: four TLS records of 16 KiB, large enough for few wrap calls,
     * small enough to keep per-connection memory low.
     */
    static final int CHUNK_BYTES = 64 * 1024;

    /** What is left to send: field buffers (released once copied) and file ranges, in order. */
    private final ArrayDeque<Object> pieces;

    private final long length;
    /** Bytes of the first piece, when a file range, already read. */
    private int readOfFirstPiece;

    private long transferred;

    /** A range of a segment file alone. */
    public SegmentChunkedInput(FileChannel file, long position, int count) {
        this(List.of(new FileSliceRecords(file, position, count)));
    }

    /**
     * @param pieces {@link ByteBuf}s, whose readable bytes are sent and which this input now owns, and
     *               {@link FileSliceRecords}, in the order they are sent
     */
    public SegmentChunkedInput(List<?> pieces) {
        this.pieces = new ArrayDeque<>(pieces.size());
        long bytes = 0;
        for (Object piece : pieces) {
            if (piece instanceof ByteBuf fields) {
                bytes += fields.readableBytes();
            } else if (piece instanceof FileSliceRecords slice) {
                bytes += slice.sizeInBytes();
            } else {
                throw new IllegalArgumentException("not a buffer or a file range: " + piece);
            }
            this.pieces.add(piece);
        }
        this.length = bytes;
    }

    @Override
    public boolean isEndOfInput() {
        return transferred >= length;
    }

    /** Releases the field buffers not sent yet; the segment files belong to the log. */
    @Override
    public void close() {
        Object piece;
        while ((piece = pieces.poll()) != null) {
            if (piece instanceof ByteBuf fields) {
                fields.release();
            }
        }
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
        int size = (int) Math.min(CHUNK_BYTES, length - transferred);
        ByteBuf chunk = allocator.directBuffer(size);
        try {
            while (chunk.writerIndex() < size) {
                fill(chunk, size - chunk.writerIndex());
            }
            transferred += size;
            return chunk;
        } catch (IOException | RuntimeException e) {
            chunk.release();
            throw e;
        }
    }

    /** Moves up to {@code space} bytes of the first piece into the chunk. */
    private void fill(ByteBuf chunk, int space) throws IOException {
        Object piece = pieces.peek();
        if (piece instanceof ByteBuf fields) {
            chunk.writeBytes(fields, Math.min(space, fields.readableBytes()));
            if (!fields.isReadable()) {
                pieces.poll();
                fields.release();
            }
            return;
        }
        FileSliceRecords slice = (FileSliceRecords) piece;
        int wanted = Math.min(space, slice.sizeInBytes() - readOfFirstPiece);
        if (wanted > 0) {
            int read = chunk.writeBytes(slice.channel(), slice.position() + readOfFirstPiece, wanted);
            if (read < 0) {
                throw new IOException("segment file shrank below the fetched range [" + slice.position() + ", "
                        + (slice.position() + slice.sizeInBytes()) + ") while it was being sent");
            }
            readOfFirstPiece += read;
        }
        if (readOfFirstPiece == slice.sizeInBytes()) {
            pieces.poll();
            readOfFirstPiece = 0;
        }
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public long progress() {
        return transferred;
    }

    @Override
    protected void deallocate() {
        close();
    }

    @Override
    public SegmentChunkedInput touch(Object hint) {
        return this;
    }
}
