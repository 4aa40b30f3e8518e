package io.sluice.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.FileRegion;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageSizeAccumulator;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.Records;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the fetch path hands record bytes to the socket as a file region (sendfile) and never
 * through a heap or direct buffer: the buffers written hold only protocol fields, and the region
 * covers exactly the segment range.
 */
class ZeroCopyFetchResponseTest {
    @TempDir
    Path tmp;

    @Test
    void shouldWriteRecordBytesAsAFileRegionAndOnlyProtocolFieldsAsBuffers() throws Exception {
        MemoryRecords records = MemoryRecords.withRecords(
                org.apache.kafka.common.compress.Compression.NONE,
                new SimpleRecord("k1".getBytes(StandardCharsets.UTF_8), "v1".getBytes(StandardCharsets.UTF_8)),
                new SimpleRecord("k2".getBytes(StandardCharsets.UTF_8), "value-2".getBytes(StandardCharsets.UTF_8)));
        Path segment = tmp.resolve("00000000000000000000.log");
        int leadingGarbage = 17;
        try (FileChannel out = FileChannel.open(segment, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            out.write(ByteBuffer.allocate(leadingGarbage));
            out.write(records.buffer().duplicate());
        }
        short version = ApiKeys.FETCH.latestVersion();
        try (FileChannel file = FileChannel.open(segment, StandardOpenOption.READ)) {
            FetchResponseData body = new FetchResponseData().setSessionId(0);
            body.responses()
                    .add(new FetchResponseData.FetchableTopicResponse()
                            .setTopic("t")
                            .setTopicId(org.apache.kafka.common.Uuid.randomUuid())
                            .setPartitions(List.of(new FetchResponseData.PartitionData()
                                    .setPartitionIndex(0)
                                    .setHighWatermark(2)
                                    .setRecords(new FileSliceRecords(file, leadingGarbage, records.sizeInBytes())))));

            ObjectSerializationCache cache = new ObjectSerializationCache();
            MessageSizeAccumulator size = new MessageSizeAccumulator();
            body.addSize(size, cache, version);
            ResponseWritable writable =
                    new ResponseWritable(PooledByteBufAllocator.DEFAULT, size.sizeExcludingZeroCopy());
            body.write(writable, cache, version);
            List<Object> parts = writable.finish();

            int bufferBytes = 0;
            List<FileRegion> regions = new ArrayList<>();
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            WritableByteChannel sink = Channels.newChannel(wire);
            for (Object part : parts) {
                if (part instanceof ByteBuf buf) {
                    bufferBytes += buf.readableBytes();
                    byte[] copy = new byte[buf.readableBytes()];
                    buf.getBytes(buf.readerIndex(), copy);
                    wire.write(copy);
                } else {
                    FileRegion region = assertInstanceOf(FileRegion.class, part);
                    regions.add(region);
                    while (region.transferred() < region.count()) {
                        region.transferTo(sink, region.transferred());
                    }
                }
                ReferenceCountUtil.release(part);
            }
            assertEquals(1, regions.size());
            assertEquals(records.sizeInBytes(), regions.get(0).count());
            assertEquals(leadingGarbage, regions.get(0).position());
            assertEquals(size.sizeExcludingZeroCopy(), bufferBytes, "buffers hold only the protocol fields");
            assertEquals(size.totalSize(), wire.size());
            assertTrue(file.isOpen(), "the segment file stays open: it belongs to the log");

            FetchResponseData decoded =
                    new FetchResponseData(new ByteBufferAccessor(ByteBuffer.wrap(wire.toByteArray())), version);
            Records decodedRecords =
                    (Records) decoded.responses().get(0).partitions().get(0).records();
            assertEquals(records.buffer(), ((MemoryRecords) decodedRecords).buffer());
        }
    }
}
