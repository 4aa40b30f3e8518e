package io.sluice.broker.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a fetch's record bytes reach a TLS connection, where sendfile cannot be used: the records field becomes a
 * {@link SegmentChunkedInput}, read chunk by chunk with one positional file read into one pooled direct buffer each
 * (the one copy; the SslHandler then encrypts from it). Measured: bytes the reading thread allocates on the heap
 * (com.sun.management.ThreadMXBean) while 4 MiB of records are read stay far below the 4 MiB a heap copy would take;
 * the chunks are direct, at most 64 KiB, and together exactly the fields and the slice.
 */
class TlsFetchResponseTest {
    private static final int RECORD_BYTES = 4 * 1024 * 1024;
    private static final int LEADING = 123;

    @TempDir
    Path tmp;

    @Test
    void shouldReadRecordsIntoPooledDirectChunksWithoutHeapCopies() throws Exception {
        byte[] records = new byte[RECORD_BYTES];
        new Random(7).nextBytes(records);
        Path segment = tmp.resolve("00000000000000000000.log");
        try (FileChannel out = FileChannel.open(segment, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            out.write(ByteBuffer.allocate(LEADING));
            out.write(ByteBuffer.wrap(records));
        }
        try (FileChannel file = FileChannel.open(segment, StandardOpenOption.READ)) {
            ResponseWritable writable = new ResponseWritable(PooledByteBufAllocator.DEFAULT, 64, false);
            writable.writeInt(42);
            writable.writeRecords(new FileSliceRecords(file, LEADING, RECORD_BYTES));
            writable.writeInt(43);
            List<Object> parts = writable.finish();
            assertEquals(1, parts.size(), "fields and records in one chunked input: " + parts);
            SegmentChunkedInput input = assertInstanceOf(SegmentChunkedInput.class, parts.get(0));
            // Warm up the allocator's thread cache and the file channel, as a running broker has them.
            SegmentChunkedInput warmUp = new SegmentChunkedInput(file, LEADING, RECORD_BYTES);
            while (!warmUp.isEndOfInput()) {
                warmUp.readChunk(PooledByteBufAllocator.DEFAULT).release();
            }

            ByteArrayOutputStream wire = new ByteArrayOutputStream(RECORD_BYTES + 8);
            byte[] check = new byte[SegmentChunkedInput.CHUNK_BYTES];
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long heapBytes = 0;
            int chunks = 0;
            while (!input.isEndOfInput()) {
                long before = threads.getCurrentThreadAllocatedBytes();
                ByteBuf chunk = input.readChunk(PooledByteBufAllocator.DEFAULT);
                heapBytes += threads.getCurrentThreadAllocatedBytes() - before;
                assertTrue(chunk.isDirect(), "chunk is a direct buffer");
                assertTrue(chunk.readableBytes() <= SegmentChunkedInput.CHUNK_BYTES);
                int n = chunk.readableBytes();
                chunk.readBytes(check, 0, n);
                wire.write(check, 0, n);
                chunk.release();
                chunks++;
            }
            assertEquals(RECORD_BYTES / SegmentChunkedInput.CHUNK_BYTES + 1, chunks, "whole chunks, then the rest");
            ByteBuffer expected = ByteBuffer.allocate(RECORD_BYTES + 8).putInt(42);
            expected.put(records).putInt(43);
            assertArrayEquals(expected.array(), wire.toByteArray());
            // A heap copy would allocate at least the 4 MiB read. What is allocated is bookkeeping per pooled buffer
            // (leak detection records a trace for each in tests; about 4 KB a chunk here, 0 in a plain JVM once warm).
            assertTrue(
                    heapBytes < RECORD_BYTES / 8,
                    "heap allocated while reading " + RECORD_BYTES + " record bytes: " + heapBytes);
            assertEquals(file.size(), LEADING + RECORD_BYTES, "the segment file is left open and whole");
            assertTrue(file.isOpen());
        }
    }
}
