package io.sluice.broker.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.security.TestSecurity;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.record.BaseRecords;
import org.apache.kafka.common.record.MemoryRecords;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The copy count of a fetch on a TLS connection: fetch answers sent as the broker sends them ({@link ResponseSender}
 * through the connection's {@link NetworkServer#tlsHandler} and a real JDK engine, see {@link TlsCopyHarness}) must
 * hand {@code SSLEngine.wrap} every record byte in the memory the segment file read put it in: read once from the file,
 * then copied only by the engine into its TLS record (and encrypted there), for one large partition as for many small
 * ones (where Netty's SslHandler used to coalesce each partition's fields and records by copying them). The client
 * must decrypt exactly the bytes Kafka's serialization of the same answer gives.
 */
class SegmentChunkedInputTlsCopyTest {
    private static final short VERSION = ApiKeys.FETCH.latestVersion();
    private static final int WRAP = SegmentChunkedInput.CHUNK_BYTES;

    @TempDir
    static Path storesDir;

    private static TestSecurity security;

    @TempDir
    Path dir;

    @BeforeAll
    static void makeCertificates() throws Exception {
        security = TestSecurity.create(storesDir);
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void shouldWrapLargeFetchesStraightFromTheFileReads(String protocol) throws Exception {
        assertFetchesCopiedOnce(protocol, 4, sizes(1, 2 << 20));
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void shouldWrapManySmallPartitionsStraightFromTheFileReads(String protocol) throws Exception {
        assertFetchesCopiedOnce(protocol, 4, sizes(50, 200));
    }

    /**
     * Record sets at the edges of the chunking: empty, one byte, exactly the wrap size and one over, one that fills a
     * chunk with the fields before it, and a last one of 77 bytes, as when a fetch's max bytes cuts a batch short.
     */
    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void shouldWrapRecordSetsAtTheChunkEdgesStraightFromTheFileReads(String protocol) throws Exception {
        assertFetchesCopiedOnce(
                protocol, 1, List.of(0, 1, 0, WRAP, WRAP + 1, WRAP - 40, 0, 200, WRAP - 1, 3 * WRAP, 77));
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void shouldWrapMixedSizesStraightFromTheFileReads(String protocol) throws Exception {
        Random random = new Random(15);
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            sizes.add(random.nextInt(4) == 0 ? random.nextInt(3 * WRAP) : random.nextInt(600));
        }
        assertFetchesCopiedOnce(protocol, 2, sizes);
    }

    /** Sends {@code fetches} answers, each with a partition per size, all from one segment file. */
    private void assertFetchesCopiedOnce(String protocol, int fetches, List<Integer> recordSetSizes) throws Exception {
        int total = recordSetSizes.stream().mapToInt(Integer::intValue).sum();
        byte[] segmentBytes = new byte[total + 13];
        new Random(7).nextBytes(segmentBytes);
        Path segment = dir.resolve("00000000000000000000.log");
        Files.write(segment, segmentBytes);
        Uuid topicId = Uuid.randomUuid();
        try (TlsCopyHarness tls = TlsCopyHarness.connect(security, protocol)) {
            FileChannel file = tls.open(segment);
            long answerBytes = 0;
            for (int fetch = 0; fetch < fetches; fetch++) {
                FetchResponseData sent = fetchAnswer(
                        topicId, recordSetSizes, (position, size) -> new FileSliceRecords(file, 13 + position, size));
                FetchResponseData expected = fetchAnswer(
                        topicId,
                        recordSetSizes,
                        (position, size) ->
                                MemoryRecords.readableRecords(ByteBuffer.wrap(segmentBytes, 13 + position, size)
                                        .slice()));
                byte[] wire = serialized(expected, fetch);
                assertArrayEquals(wire, tls.send(sent, VERSION, fetch), "fetch " + fetch + " decrypted as sent");
                answerBytes += wire.length;
            }
            assertEquals(answerBytes, tls.bytesWrapped(), "every byte of the answers wrapped once");
            long recordBytes = (long) fetches * total;
            assertEquals(
                    recordBytes,
                    tls.bytesWrappedWhereTheFileReadPutThem(),
                    protocol + ", " + recordSetSizes.size() + " partitions: of " + recordBytes
                            + " record bytes, this many reached the engine from the memory the file read put them in"
                            + " (the rest were copied again before it)");
        }
    }

    private static List<Integer> sizes(int partitions, int bytes) {
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            sizes.add(bytes);
        }
        return sizes;
    }

    /** One topic, partition i answering record set i, laid out one after the other in the segment. */
    private static FetchResponseData fetchAnswer(
            Uuid topicId, List<Integer> recordSetSizes, BiFunction<Integer, Integer, BaseRecords> records) {
        FetchResponseData.FetchableTopicResponse topic =
                new FetchResponseData.FetchableTopicResponse().setTopic("t").setTopicId(topicId);
        int position = 0;
        for (int i = 0; i < recordSetSizes.size(); i++) {
            int size = recordSetSizes.get(i);
            topic.partitions()
                    .add(new FetchResponseData.PartitionData()
                            .setPartitionIndex(i)
                            .setHighWatermark(1000L + i)
                            .setRecords(records.apply(position, size)));
            position += size;
        }
        FetchResponseData body = new FetchResponseData().setSessionId(0);
        body.responses().add(topic);
        return body;
    }

    /** The answer as Kafka's generated serialization writes it: size, header, body. */
    private static byte[] serialized(FetchResponseData body, int correlationId) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        short headerVersion = ApiKeys.FETCH.responseHeaderVersion(VERSION);
        ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlationId);
        int size = header.size(cache, headerVersion) + body.size(cache, VERSION);
        ByteBuffer buffer = ByteBuffer.allocate(4 + size);
        buffer.putInt(size);
        ByteBufferAccessor accessor = new ByteBufferAccessor(buffer);
        header.write(accessor, cache, headerVersion);
        body.write(accessor, cache, VERSION);
        return buffer.array();
    }
}
