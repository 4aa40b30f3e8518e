package io.sluice.record.compress;

import static io.sluice.record.compress.StoredPayloads.NO_CEILING;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Lz4PayloadDecompressor#storedRanges}: the blocks of Kafka's lz4 frames of incompressible
 * data as they lie, and for every other payload, damaged or forged, either nothing or exactly
 * what the streaming decoder yields.
 */
class Lz4StoredRangesTest {

    private static final int LZ4 = 3;
    /** Kafka's lz4 block size (KafkaLZ4BlockOutputStream's default, BD id 4). */
    private static final int LZ4_BLOCK = 64 * 1024;

    @Test
    void shouldGiveTheBlocksOfKafkaPayloadsOfRandomValues() {
        try (Lz4PayloadDecompressor decompressor = new Lz4PayloadDecompressor()) {
            StoredPayloads.assertKafkaRandomPayloadsStored(decompressor, LZ4, LZ4_BLOCK);
        }
    }

    @Test
    void shouldRefuseKafkaPayloadsOfCompressibleValues() {
        try (Lz4PayloadDecompressor decompressor = new Lz4PayloadDecompressor()) {
            StoredPayloads.assertKafkaTextPayloadsRefused(decompressor, LZ4);
        }
    }

    @Test
    void shouldKeepTheContractForDamagedAndForgedPayloads() {
        Random random = new Random(0x174);
        byte[][] valid = {
            StoredPayloads.kafkaPayload(LZ4, random, 30, 3000, false),
            StoredPayloads.kafkaPayload(LZ4, random, 1, 200_000, false),
            StoredPayloads.kafkaPayload(LZ4, random, 5, 100, true),
            StoredPayloads.kafkaTextPayload(LZ4, 50, 500),
            new Lz4Frames(Lz4Frames.FLG_V1_INDEPENDENT, Lz4Frames.BD_64_KIB, 0)
                    .stored(StoredPayloads.randomBytes(random, 700))
                    .compressed(new byte[3000])
                    .stored(StoredPayloads.randomBytes(random, 10))
                    .end(),
        };
        int cases = 6000;
        int stored;
        try (Lz4PayloadDecompressor decompressor = new Lz4PayloadDecompressor()) {
            stored = StoredPayloads.countStoredOfDamaged(
                    decompressor, valid, Lz4Frames::forged, random, cases, NO_CEILING);
        }
        assertTrue(stored > cases / 12, "only " + stored + " of " + cases + " payloads were stored");
    }

    @Test
    void shouldRefuseFramesWithChecksumsThoughTheDecoderAcceptsThem() {
        Random random = new Random(5);
        byte[] data = StoredPayloads.randomBytes(random, 5000);
        byte[] blockChecksums = new Lz4Frames(
                        Lz4Frames.FLG_V1_INDEPENDENT | Lz4FrameLayout.FLG_BLOCK_CHECKSUM, Lz4Frames.BD_64_KIB, 0)
                .stored(data)
                .end();
        byte[] contentChecksum = new Lz4Frames(
                        Lz4Frames.FLG_V1_INDEPENDENT | Lz4FrameLayout.FLG_CONTENT_CHECKSUM, Lz4Frames.BD_64_KIB, 0)
                .stored(data)
                .end();
        try (Lz4PayloadDecompressor decompressor = new Lz4PayloadDecompressor()) {
            for (byte[] payload : new byte[][] {blockChecksums, contentChecksum}) {
                StoredPayloads.Verdict verdict = StoredPayloads.verdict(decompressor, payload, NO_CEILING, true, 4);
                assertArrayEquals(data, verdict.streamed().bytes());
                assertEquals(PayloadDecompressor.NOT_STORED, verdict.rangeCount());
            }
        }
    }

    @Test
    void shouldRefuseWrongBlockChecksumsThatWouldParseAsAnEmptyStoredBlock() {
        byte[] data = StoredPayloads.randomBytes(new Random(10), 4);
        int hash = net.jpountz.xxhash.XXHashFactory.safeInstance().hash32().hash(data, 0, data.length, 0);
        // The checksum field reads as the size word of an empty stored block; the end mark follows.
        byte[] payload = new Lz4Frames(
                        Lz4Frames.FLG_V1_INDEPENDENT | Lz4FrameLayout.FLG_BLOCK_CHECKSUM, Lz4Frames.BD_64_KIB, 0)
                .stored(data, data.length, hash ^ Lz4FrameLayout.STORED_BLOCK_FLAG)
                .end();
        try (Lz4PayloadDecompressor decompressor = new Lz4PayloadDecompressor()) {
            StoredPayloads.Verdict verdict = StoredPayloads.verdict(decompressor, payload, NO_CEILING, true, 4);
            assertTrue(
                    verdict.streamed().error().contains("block checksum"),
                    verdict.streamed().error());
            assertEquals(PayloadDecompressor.NOT_STORED, verdict.rangeCount());
        }
    }

    @Test
    void shouldRefuseAFrameWhoseDeclaredContentSizeDiffersThoughTheDecoderIgnoresIt() {
        byte[] data = StoredPayloads.randomBytes(new Random(6), 3000);
        int sized = Lz4Frames.FLG_V1_INDEPENDENT | Lz4FrameLayout.FLG_CONTENT_SIZE;
        try (Lz4PayloadDecompressor decompressor = new Lz4PayloadDecompressor()) {
            StoredPayloads.Verdict right = StoredPayloads.verdict(
                    decompressor,
                    new Lz4Frames(sized, Lz4Frames.BD_64_KIB, 3000).stored(data).end(),
                    NO_CEILING,
                    true,
                    4);
            assertEquals(1, right.rangeCount());
            assertArrayEquals(data, right.concatenation());
            StoredPayloads.Verdict wrong = StoredPayloads.verdict(
                    decompressor,
                    new Lz4Frames(sized, Lz4Frames.BD_64_KIB, 3001).stored(data).end(),
                    NO_CEILING,
                    true,
                    4);
            assertArrayEquals(data, wrong.streamed().bytes());
            assertEquals(PayloadDecompressor.NOT_STORED, wrong.rangeCount());
        }
    }

    @Test
    void shouldOmitEmptyBlocksAndGiveNoRangesForAnEmptyFrame() {
        Random random = new Random(7);
        byte[] first = StoredPayloads.randomBytes(random, 10);
        byte[] second = StoredPayloads.randomBytes(random, 20);
        try (Lz4PayloadDecompressor decompressor = new Lz4PayloadDecompressor()) {
            StoredPayloads.Verdict verdict = StoredPayloads.assertContract(
                    decompressor,
                    new Lz4Frames(Lz4Frames.FLG_V1_INDEPENDENT, Lz4Frames.BD_64_KIB, 0)
                            .stored(new byte[0])
                            .stored(first)
                            .stored(new byte[0])
                            .stored(second)
                            .end(),
                    NO_CEILING,
                    false,
                    2,
                    "empty blocks");
            assertEquals(2, verdict.rangeCount());
            assertArrayEquals(StoredPayloads.concat(first, second), verdict.concatenation());
            assertEquals(
                    0,
                    StoredPayloads.assertContract(
                                    decompressor,
                                    new Lz4Frames(Lz4Frames.FLG_V1_INDEPENDENT, Lz4Frames.BD_64_KIB, 0).end(),
                                    NO_CEILING,
                                    true,
                                    1,
                                    "no blocks")
                            .rangeCount());
        }
    }

    @Test
    void shouldRefuseMoreBlocksThanTheRangesHoldOrMoreBytesThanAllowed() {
        Random random = new Random(8);
        Lz4Frames frame = new Lz4Frames(Lz4Frames.FLG_V1_INDEPENDENT, Lz4Frames.BD_64_KIB, 0);
        for (int block = 0; block < 5; block++) {
            frame.stored(StoredPayloads.randomBytes(random, 100));
        }
        byte[] payload = frame.end();
        try (Lz4PayloadDecompressor decompressor = new Lz4PayloadDecompressor()) {
            assertEquals(
                    5,
                    StoredPayloads.verdict(decompressor, payload, NO_CEILING, true, 5)
                            .rangeCount());
            assertEquals(
                    PayloadDecompressor.NOT_STORED,
                    StoredPayloads.verdict(decompressor, payload, NO_CEILING, true, 4)
                            .rangeCount());
            assertEquals(
                    5,
                    StoredPayloads.verdict(decompressor, payload, 500, true, 5).rangeCount());
            StoredPayloads.Verdict overLimit = StoredPayloads.verdict(decompressor, payload, 499, true, 5);
            assertEquals(PayloadDecompressor.NOT_STORED, overLimit.rangeCount());
            assertTrue(
                    overLimit.streamed().error().startsWith("DECOMPRESSED_TOO_LARGE"),
                    overLimit.streamed().error());
        }
    }

    @Test
    void shouldRefuseBlocksOverTheFrameMaximumAndCompressedBlocks() {
        Random random = new Random(9);
        try (Lz4PayloadDecompressor decompressor = new Lz4PayloadDecompressor()) {
            byte[] over = new Lz4Frames(Lz4Frames.FLG_V1_INDEPENDENT, Lz4Frames.BD_64_KIB, 0)
                    .stored(StoredPayloads.randomBytes(random, 65_537))
                    .end();
            StoredPayloads.Verdict overMaximum = StoredPayloads.verdict(decompressor, over, NO_CEILING, true, 4);
            assertEquals(PayloadDecompressor.NOT_STORED, overMaximum.rangeCount());
            assertTrue(
                    overMaximum.streamed().error().contains("max block size"),
                    overMaximum.streamed().error());
            byte[] larger = new Lz4Frames(Lz4Frames.FLG_V1_INDEPENDENT, Lz4Frames.BD_64_KIB + 0x10, 0)
                    .stored(StoredPayloads.randomBytes(random, 65_537))
                    .end();
            assertEquals(
                    1,
                    StoredPayloads.assertContract(decompressor, larger, NO_CEILING, true, 4, "256 KiB blocks")
                            .rangeCount());
            byte[] mixed = new Lz4Frames(Lz4Frames.FLG_V1_INDEPENDENT, Lz4Frames.BD_64_KIB, 0)
                    .stored(StoredPayloads.randomBytes(random, 100))
                    .compressed(new byte[1000])
                    .end();
            StoredPayloads.Verdict compressed = StoredPayloads.verdict(decompressor, mixed, NO_CEILING, true, 4);
            assertNull(compressed.streamed().error());
            assertEquals(PayloadDecompressor.NOT_STORED, compressed.rangeCount());
        }
    }
}
