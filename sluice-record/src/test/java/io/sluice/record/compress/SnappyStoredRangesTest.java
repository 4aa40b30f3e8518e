package io.sluice.record.compress;

import static io.sluice.record.compress.StoredPayloads.NO_CEILING;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link SnappyPayloadDecompressor#storedRanges}: the literals of Kafka's snappy payloads of
 * incompressible data as they lie, and for every other payload, damaged or forged, either nothing
 * or exactly what the streaming decoder (snappy-java) yields.
 */
class SnappyStoredRangesTest {

    private static final int SNAPPY = 2;
    private static final int XERIAL_CHUNK = 32 * 1024;
    /**
     * The decoder reserves a block's declared length before decoding it: a ceiling keeps forged
     * lengths from growing the window to gigabytes, as the validator's does.
     */
    private static final long DIFFERENTIAL_CEILING = 16 << 20;

    @Test
    void shouldGiveTheLiteralsOfKafkaPayloadsOfRandomValues() {
        try (SnappyPayloadDecompressor decompressor = new SnappyPayloadDecompressor()) {
            StoredPayloads.assertKafkaRandomPayloadsStored(decompressor, SNAPPY, XERIAL_CHUNK);
        }
    }

    @Test
    void shouldRefuseKafkaPayloadsOfCompressibleValues() {
        try (SnappyPayloadDecompressor decompressor = new SnappyPayloadDecompressor()) {
            StoredPayloads.assertKafkaTextPayloadsRefused(decompressor, SNAPPY);
        }
    }

    @Test
    void shouldKeepTheContractForDamagedAndForgedPayloads() {
        Random random = new Random(0x5A);
        byte[][] valid = {
            StoredPayloads.kafkaPayload(SNAPPY, random, 30, 3000, false),
            StoredPayloads.kafkaPayload(SNAPPY, random, 1, 100_000, false),
            StoredPayloads.kafkaPayload(SNAPPY, random, 5, 100, true),
            StoredPayloads.kafkaTextPayload(SNAPPY, 50, 500),
            SnappyFrames.framed(
                    SnappyFrames.literalBlock(
                            StoredPayloads.randomBytes(random, 70), StoredPayloads.randomBytes(random, 3)),
                    SnappyFrames.literalBlock()),
            SnappyFrames.literalBlock(StoredPayloads.randomBytes(random, 300), StoredPayloads.randomBytes(random, 1)),
        };
        int cases = 6000;
        int stored;
        try (SnappyPayloadDecompressor decompressor = new SnappyPayloadDecompressor()) {
            stored = StoredPayloads.countStoredOfDamaged(
                    decompressor, valid, SnappyFrames::forged, random, cases, DIFFERENTIAL_CEILING);
        }
        assertTrue(stored > cases / 12, "only " + stored + " of " + cases + " payloads were stored");
    }

    @Test
    void shouldGiveOneRangePerLiteralOfAMillionAndRefuseThemBeyondTheRangesHeld() {
        int literals = 1_000_000;
        SnappyFrames block = new SnappyFrames().varint(literals);
        byte[] one = new byte[1];
        for (int i = 0; i < literals; i++) {
            one[0] = (byte) i;
            block.literal(one);
        }
        byte[] payload = SnappyFrames.framed(block.bytes());
        try (SnappyPayloadDecompressor decompressor = new SnappyPayloadDecompressor()) {
            StoredPayloads.Verdict all = StoredPayloads.assertContract(
                    decompressor, payload, NO_CEILING, true, literals, "a million literals");
            assertEquals(literals, all.rangeCount());
            assertEquals(
                    PayloadDecompressor.NOT_STORED,
                    StoredPayloads.verdict(decompressor, payload, NO_CEILING, true, literals - 1)
                            .rangeCount());
            assertEquals(
                    PayloadDecompressor.NOT_STORED,
                    StoredPayloads.verdict(decompressor, payload, NO_CEILING, true, 128)
                            .rangeCount());
        }
    }

    @Test
    void shouldRefuseMoreBytesThanAllowed() {
        Random random = new Random(12);
        byte[] payload = SnappyFrames.framed(
                SnappyFrames.literalBlock(StoredPayloads.randomBytes(random, 300)),
                SnappyFrames.literalBlock(StoredPayloads.randomBytes(random, 200)));
        try (SnappyPayloadDecompressor decompressor = new SnappyPayloadDecompressor()) {
            assertEquals(
                    2,
                    StoredPayloads.verdict(decompressor, payload, 500, true, 2).rangeCount());
            StoredPayloads.Verdict overLimit = StoredPayloads.verdict(decompressor, payload, 499, true, 2);
            assertEquals(PayloadDecompressor.NOT_STORED, overLimit.rangeCount());
            assertTrue(
                    overLimit.streamed().error().startsWith("DECOMPRESSED_TOO_LARGE"),
                    overLimit.streamed().error());
        }
    }

    @Test
    void shouldIndexTheCallersSourceWhenAHeapPayloadIsStagedInDirectMemory() {
        byte[] literal = StoredPayloads.randomBytes(new Random(13), 100);
        byte[] block = SnappyFrames.literalBlock(literal);
        try (SnappyPayloadDecompressor decompressor = new SnappyPayloadDecompressor()) {
            for (boolean direct : new boolean[] {false, true}) {
                StoredPayloads.Verdict verdict = StoredPayloads.assertContract(
                        decompressor, SnappyFrames.framed(block), NO_CEILING, direct, 1, direct ? "direct" : "heap");
                assertArrayEquals(literal, verdict.concatenation());
            }
        }
    }

    @Test
    void shouldTakeAnUnframedPayloadAsOneRawBlockLikeTheDecoder() {
        Random random = new Random(14);
        byte[] first = StoredPayloads.randomBytes(random, 61);
        byte[] second = StoredPayloads.randomBytes(random, 5000);
        try (SnappyPayloadDecompressor decompressor = new SnappyPayloadDecompressor()) {
            StoredPayloads.Verdict raw = StoredPayloads.assertContract(
                    decompressor, SnappyFrames.literalBlock(first, second), NO_CEILING, false, 2, "raw block");
            assertEquals(2, raw.rangeCount());
            assertEquals(
                    0,
                    StoredPayloads.assertContract(decompressor, new byte[0], NO_CEILING, true, 1, "empty")
                            .rangeCount());
            assertEquals(
                    0,
                    StoredPayloads.assertContract(
                                    decompressor, SnappyFrames.framed(), NO_CEILING, true, 1, "header only")
                            .rangeCount());
        }
    }

    @Test
    void shouldReadVarintsAsSnappyDoes() {
        byte[] literal = StoredPayloads.randomBytes(new Random(15), 20);
        byte[] padded =
                new SnappyFrames().varint(literal.length, 5).literal(literal).bytes();
        byte[] overlong =
                new SnappyFrames().varint(literal.length, 6).literal(literal).bytes();
        try (SnappyPayloadDecompressor decompressor = new SnappyPayloadDecompressor()) {
            StoredPayloads.Verdict five =
                    StoredPayloads.verdict(decompressor, SnappyFrames.framed(padded), NO_CEILING, true, 1);
            assertNull(five.streamed().error());
            assertEquals(1, five.rangeCount());
            StoredPayloads.Verdict six =
                    StoredPayloads.verdict(decompressor, SnappyFrames.framed(overlong), NO_CEILING, true, 1);
            assertTrue(six.streamed().error() != null, "snappy reads at most 5 varint bytes");
            assertEquals(PayloadDecompressor.NOT_STORED, six.rangeCount());
        }
    }

    @Test
    void shouldRefuseCopiesEvenWhereTheirBytesWouldParseAsLiteralsOfTheSameLength() {
        byte[] literal = StoredPayloads.randomBytes(new Random(17), 10);
        // A copy of 2 bytes with a 2-byte offset reads, taken as a literal tag, as a 2-byte literal of
        // its offset bytes (likewise 4 and 4): the lengths add up either way, the bytes do not.
        byte[] twoByteOffset = new SnappyFrames()
                .varint(12)
                .literal(literal)
                .longCopy(2, 10, 2)
                .bytes();
        byte[] fourByteOffset =
                new SnappyFrames().varint(14).literal(literal).longCopy(4, 3, 4).bytes();
        try (SnappyPayloadDecompressor decompressor = new SnappyPayloadDecompressor()) {
            for (byte[] block : new byte[][] {twoByteOffset, fourByteOffset}) {
                StoredPayloads.Verdict verdict =
                        StoredPayloads.verdict(decompressor, SnappyFrames.framed(block), NO_CEILING, true, 4);
                assertNull(verdict.streamed().error());
                assertEquals(PayloadDecompressor.NOT_STORED, verdict.rangeCount());
            }
        }
    }

    @Test
    void shouldNotReadPastThePayloadWhenALiteralLengthIsCutOff() throws Exception {
        // a literal tag announcing 4 length bytes, the last byte of the payload and of its buffer
        byte[] block =
                new SnappyFrames().varint(100).raw(new byte[] {(byte) 0xFC}).bytes();
        for (byte[] payload : new byte[][] {SnappyFrames.framed(block), block}) {
            ByteBuffer source = ByteBuffer.allocateDirect(payload.length).put(0, payload);
            try (SnappyPayloadDecompressor decompressor = new SnappyPayloadDecompressor()) {
                decompressor.begin(source, 0, payload.length);
                assertEquals(PayloadDecompressor.NOT_STORED, decompressor.storedRanges(NO_CEILING, new int[8]));
                assertTrue(StoredPayloads.drainBegun(decompressor, NO_CEILING).error() != null);
            }
        }
    }

    @Test
    void shouldGiveTheSameRangesAfterAFailedRefill() throws Exception {
        Random random = new Random(16);
        byte[] payload = SnappyFrames.framed(
                SnappyFrames.literalBlock(StoredPayloads.randomBytes(random, 100)),
                SnappyFrames.literalBlock(StoredPayloads.randomBytes(random, 100)),
                SnappyFrames.literalBlock(StoredPayloads.randomBytes(random, 100)));
        try (SnappyPayloadDecompressor decompressor = new SnappyPayloadDecompressor()) {
            ByteBuffer source = StoredPayloads.source(payload, true);
            decompressor.begin(source, StoredPayloads.SOURCE_OFFSET, StoredPayloads.SOURCE_OFFSET + payload.length);
            StoredPayloads.Outcome overCeiling = StoredPayloads.drainBegun(decompressor, 50);
            assertTrue(overCeiling.error().startsWith("DECOMPRESSED_TOO_LARGE"), overCeiling.error());
            assertEquals(3, decompressor.storedRanges(NO_CEILING, new int[8]));
        }
    }
}
