package io.sluice.broker.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.record.MemoryRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SegmentChunkedInput} as an answer's fields and file ranges cut into whole chunks, and how
 * {@link ResponseWritable} builds it on a TLS connection: chunk sizes and order, the field buffers released whatever
 * happens (sent, closed early, released unsent, the file shrinking under the range), bad pieces refused.
 */
class SegmentChunkedInputTest {
    private static final int CHUNK = SegmentChunkedInput.CHUNK_BYTES;

    @TempDir
    Path dir;

    @Test
    void shouldCutFieldsAndFileRangesIntoWholeChunksInOrder() throws Exception {
        byte[] segment = randomBytes(3 * CHUNK);
        Path path = dir.resolve("00000000000000000000.log");
        Files.write(path, segment);
        ByteBuf head = fields(11);
        ByteBuf between = fields(CHUNK - 11 - 300);
        ByteBuf empty = Unpooled.directBuffer(8);
        ByteBuf tail = fields(5);
        try (FileChannel file = FileChannel.open(path)) {
            SegmentChunkedInput input = new SegmentChunkedInput(List.of(
                    head,
                    new FileSliceRecords(file, 7, 300),
                    between,
                    new FileSliceRecords(file, 0, 0),
                    empty,
                    new FileSliceRecords(file, 1000, CHUNK + 1),
                    tail));
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            expected.write(bytes(head));
            expected.write(segment, 7, 300);
            expected.write(bytes(between));
            expected.write(segment, 1000, CHUNK + 1);
            expected.write(bytes(tail));
            assertEquals(expected.size(), input.length());

            List<Integer> chunkSizes = new ArrayList<>();
            ByteArrayOutputStream sent = new ByteArrayOutputStream();
            ByteBuf chunk;
            while ((chunk = input.readChunk(PooledByteBufAllocator.DEFAULT)) != null) {
                assertTrue(chunk.isDirect());
                chunkSizes.add(chunk.readableBytes());
                sent.write(bytes(chunk));
                chunk.release();
            }
            assertTrue(input.isEndOfInput());
            assertEquals(input.length(), input.progress());
            assertEquals(List.of(CHUNK, CHUNK, 6), chunkSizes, "whole chunks, then the rest");
            assertArrayEquals(expected.toByteArray(), sent.toByteArray());
            input.close();
            for (ByteBuf fields : List.of(head, between, empty, tail)) {
                assertEquals(0, fields.refCnt(), "field buffers released once sent");
            }
            assertTrue(file.isOpen(), "the segment file belongs to the log");
        }
    }

    @Test
    void shouldFailAndReleaseEverythingWhenTheFileShrankBelowTheRange() throws Exception {
        Path path = dir.resolve("00000000000000000000.log");
        Files.write(path, randomBytes(1000));
        ByteBuf head = fields(20);
        ByteBuf tail = fields(20);
        List<ByteBuf> chunks = new ArrayList<>();
        try (FileChannel file = FileChannel.open(path)) {
            SegmentChunkedInput input =
                    new SegmentChunkedInput(List.of(head, new FileSliceRecords(file, 900, 5000), tail));
            IOException shrank = assertThrows(
                    IOException.class,
                    () -> input.readChunk(new PooledByteBufAllocator(true) {
                        @Override
                        public ByteBuf directBuffer(int initialCapacity) {
                            ByteBuf chunk = super.directBuffer(initialCapacity);
                            chunks.add(chunk);
                            return chunk;
                        }
                    }));
            assertTrue(shrank.getMessage().contains("shrank"), shrank.getMessage());
            input.close(); // as the ChunkedWriteHandler does when a chunk fails
            assertEquals(0, head.refCnt());
            assertEquals(0, tail.refCnt());
            assertEquals(1, chunks.size());
            assertEquals(0, chunks.get(0).refCnt(), "the chunk being read released");
        }
    }

    @Test
    void shouldReleaseUnsentFieldsWhenClosedOrReleasedEarly() throws Exception {
        Path path = dir.resolve("00000000000000000000.log");
        Files.write(path, randomBytes(3 * CHUNK));
        try (FileChannel file = FileChannel.open(path)) {
            ByteBuf head = fields(10);
            ByteBuf tail = fields(10);
            SegmentChunkedInput closed =
                    new SegmentChunkedInput(List.of(head, new FileSliceRecords(file, 0, 2 * CHUNK), tail));
            closed.readChunk(PooledByteBufAllocator.DEFAULT).release();
            closed.close();
            closed.close();
            assertEquals(0, head.refCnt());
            assertEquals(0, tail.refCnt());

            ByteBuf unsent = fields(10);
            SegmentChunkedInput dropped =
                    new SegmentChunkedInput(List.of(unsent, new FileSliceRecords(file, 0, CHUNK)));
            assertTrue(dropped.release(), "a write that never reached the chunked writer releases the input");
            assertEquals(0, unsent.refCnt());
            dropped.close();
        }
    }

    @Test
    void shouldRefusePiecesThatAreNeitherFieldsNorFileRanges() {
        assertThrows(IllegalArgumentException.class, () -> new SegmentChunkedInput(List.of("garbage")));
        assertThrows(
                IllegalArgumentException.class,
                () -> new SegmentChunkedInput(List.of(MemoryRecords.withRecords(
                        org.apache.kafka.common.compress.Compression.NONE,
                        new org.apache.kafka.common.record.SimpleRecord("v".getBytes(StandardCharsets.UTF_8))))));
    }

    @Test
    void shouldKeepAnswersWithoutFileRangesAsOneBufferUnderTls() throws Exception {
        Path path = dir.resolve("00000000000000000000.log");
        Files.write(path, randomBytes(100));
        try (FileChannel file = FileChannel.open(path)) {
            ResponseWritable writable = new ResponseWritable(PooledByteBufAllocator.DEFAULT, 16, false);
            writable.writeInt(1);
            writable.writeRecords(new FileSliceRecords(file, 0, 0));
            writable.writeInt(2);
            List<Object> parts = writable.finish();
            assertEquals(1, parts.size());
            ByteBuf only = assertInstanceOf(ByteBuf.class, parts.get(0));
            assertEquals(8, only.readableBytes(), "an empty record set adds nothing");
            only.release();
        }
    }

    @Test
    void shouldReleaseTheFieldSlicesOfADiscardedTlsAnswer() throws Exception {
        Path path = dir.resolve("00000000000000000000.log");
        Files.write(path, randomBytes(100));
        try (FileChannel file = FileChannel.open(path)) {
            List<ByteBuf> allocated = new ArrayList<>();
            ResponseWritable writable = new ResponseWritable(
                    new PooledByteBufAllocator(true) {
                        @Override
                        public ByteBuf directBuffer(int initialCapacity) {
                            ByteBuf buffer = super.directBuffer(initialCapacity);
                            allocated.add(buffer);
                            return buffer;
                        }
                    },
                    16,
                    false);
            writable.writeInt(1);
            writable.writeRecords(new FileSliceRecords(file, 0, 50));
            writable.writeInt(2);
            writable.writeRecords(new FileSliceRecords(file, 50, 50));
            writable.discard();
            assertFalse(allocated.isEmpty());
            for (ByteBuf buffer : allocated) {
                assertEquals(0, buffer.refCnt(), "released with its slices");
            }
        }
    }

    @Test
    void shouldAnswerNullPastTheEnd() throws Exception {
        SegmentChunkedInput input = new SegmentChunkedInput(List.of(fields(3)));
        ByteBuf only = input.readChunk(PooledByteBufAllocator.DEFAULT);
        assertEquals(3, only.readableBytes());
        only.release();
        assertNull(input.readChunk(PooledByteBufAllocator.DEFAULT));
        input.close();
    }

    private static ByteBuf fields(int length) {
        return Unpooled.directBuffer(length).writeBytes(randomBytes(length));
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), bytes);
        return bytes;
    }

    private static byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }
}
