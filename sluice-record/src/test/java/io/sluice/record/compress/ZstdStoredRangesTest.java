package io.sluice.record.compress;

import static io.sluice.record.compress.ZstdPayloadDecompressorTest.concat;
import static io.sluice.record.compress.ZstdPayloadDecompressorTest.drain;
import static io.sluice.record.compress.ZstdPayloadDecompressorTest.randomBytes;
import static io.sluice.record.compress.ZstdPayloadDecompressorTest.rawFrame;
import static io.sluice.record.compress.ZstdPayloadDecompressorTest.sizedFrame;
import static io.sluice.record.compress.ZstdPayloadDecompressorTest.streamedFrame;
import static io.sluice.record.compress.ZstdPayloadDecompressorTest.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ZstdPayloadDecompressor#storedRanges}: the raw blocks of incompressible frames, exactly
 * what libzstd's streaming decoder produces from them, and nothing for a payload it would decode
 * otherwise or reject.
 */
class ZstdStoredRangesTest {

    private static final long NO_CEILING = Long.MAX_VALUE;
    private static final int OFFSET = 5;

    /** The ranges found in {@code payload} (placed at {@link #OFFSET} of a buffer), concatenated; null if not stored. */
    private static byte[] stored(ZstdPayloadDecompressor decompressor, byte[] payload, long maxBytes, int[] ranges) {
        ByteBuffer source =
                ByteBuffer.allocateDirect(payload.length + 2 * OFFSET).put(OFFSET, payload);
        decompressor.begin(source, OFFSET, OFFSET + payload.length);
        int count = decompressor.storedRanges(maxBytes, ranges);
        if (count == PayloadDecompressor.NOT_STORED) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int r = 0; r < count; r++) {
            int from = ranges[2 * r];
            int to = ranges[2 * r + 1];
            assertTrue(OFFSET <= from && from < to && to <= OFFSET + payload.length, "range " + from + ".." + to);
            for (int i = from; i < to; i++) {
                out.write(source.get(i));
            }
        }
        return out.toByteArray();
    }

    @Test
    void shouldGiveTheRawBlocksOfIncompressibleFramesAsKafkasProducerWritesThem() {
        Random random = new Random(1);
        try (ZstdPayloadDecompressor decompressor = new ZstdPayloadDecompressor()) {
            for (int size : new int[] {1, 100, 1000, 131_072, 131_073, 300_000, 1_100_000}) {
                byte[] content = randomBytes(random, size);
                assertArrayEquals(
                        content,
                        stored(decompressor, streamedFrame(content), NO_CEILING, new int[256]),
                        "random " + size);
            }
            byte[] two = concat(rawFrame(randomBytes(random, 3000), 10), rawFrame(randomBytes(random, 7), 12));
            assertArrayEquals(
                    drain(new ZstdPayloadDecompressor(0), two, NO_CEILING, true).bytes(),
                    stored(decompressor, two, NO_CEILING, new int[256]),
                    "two raw frames");
        }
    }

    @Test
    void shouldRefuseCompressedChecksummedOversizedAndUnboundedFrames() {
        Random random = new Random(2);
        try (ZstdPayloadDecompressor decompressor = new ZstdPayloadDecompressor()) {
            assertNull(
                    stored(decompressor, streamedFrame(text(random, 50_000)), NO_CEILING, new int[256]),
                    "compressible text");
            assertNull(
                    stored(decompressor, sizedFrame(randomBytes(random, 5000)), NO_CEILING, new int[256]),
                    "content checksum");
            assertNull(
                    stored(decompressor, rawFrame(randomBytes(random, 5000), 28), NO_CEILING, new int[256]),
                    "window above what the streaming decoder accepts");
            byte[] frame = streamedFrame(randomBytes(random, 300_000));
            assertNull(stored(decompressor, frame, NO_CEILING, new int[4]), "3 blocks, room for 2 ranges");
            assertNull(stored(decompressor, frame, 299_999, new int[256]), "one byte above the ceiling");
            assertEquals(300_000, stored(decompressor, frame, 300_000, new int[256]).length, "at the ceiling");
            assertNull(stored(decompressor, new byte[0], NO_CEILING, new int[256]), "empty payload");
            byte[] skippable = {0x50, 0x2A, 0x4D, 0x18, 0, 0, 0, 0};
            assertNull(stored(decompressor, concat(skippable, frame), NO_CEILING, new int[256]), "skippable frame");
        }
    }

    @Test
    void shouldOnlyGiveRangesTheStreamingDecoderProducesFromDamagedPayloads() {
        Random random = new Random(0x5707ED);
        byte[][] valid = {
            streamedFrame(randomBytes(random, 20_000)),
            streamedFrame(randomBytes(random, 200_000)),
            rawFrame(randomBytes(random, 2000), 10),
            rawFrame(randomBytes(random, 70_000), 16),
            concat(rawFrame(randomBytes(random, 900), 11), rawFrame(randomBytes(random, 700), 10)),
            streamedFrame(text(random, 3000)),
            sizedFrame(randomBytes(random, 4000)),
            singleSegmentRawFrame(randomBytes(random, 5000)),
            singleSegmentRawFrame(randomBytes(random, 200)),
        };
        int cases = 4000;
        int storedCases = 0;
        int damagedStoredCases = 0;
        int[] ranges = new int[256];
        try (ZstdPayloadDecompressor ours = new ZstdPayloadDecompressor();
                ZstdPayloadDecompressor streaming = new ZstdPayloadDecompressor(0)) {
            for (int i = 0; i < cases; i++) {
                byte[] original = valid[random.nextInt(valid.length)];
                byte[] payload = i % 6 == 5
                        ? flipInHeaders(original, random)
                        : StoredPayloads.mutate(original, valid, random, i % 5);
                long ceiling = random.nextInt(4) == 0 ? random.nextInt(250_000) : NO_CEILING;
                byte[] inPlace = stored(ours, payload, ceiling, ranges);
                if (inPlace == null) {
                    continue;
                }
                ZstdPayloadDecompressorTest.Outcome streamed = drain(streaming, payload, ceiling, true);
                assertNull(streamed.error(), "case " + i + ": stored ranges given for a payload the decoder rejects");
                assertArrayEquals(streamed.bytes(), inPlace, "case " + i);
                storedCases++;
                damagedStoredCases += java.util.Arrays.equals(payload, original) ? 0 : 1;
            }
        }
        assertTrue(storedCases > cases / 5, "only " + storedCases + " cases were stored");
        assertTrue(damagedStoredCases > cases / 10, "only " + damagedStoredCases + " damaged cases were stored");
    }

    /** One raw block in a single-segment frame declaring its 4-byte content size (the window is the content). */
    private static byte[] singleSegmentRawFrame(byte[] content) {
        ByteBuffer frame = ByteBuffer.allocate(content.length + 16).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        frame.putInt(ZstdFrameLayout.FRAME_MAGIC);
        frame.put((byte) (2 << ZstdFrameLayout.FRAME_CONTENT_SIZE_FLAG_SHIFT | ZstdFrameLayout.SINGLE_SEGMENT_BIT));
        frame.putInt(content.length);
        int header = content.length << ZstdFrameLayout.BLOCK_SIZE_SHIFT | ZstdFrameLayout.LAST_BLOCK_BIT;
        frame.put((byte) header).put((byte) (header >>> 8)).put((byte) (header >>> 16));
        frame.put(content);
        return java.util.Arrays.copyOf(frame.array(), frame.position());
    }

    /** A bit flipped among the first bytes: frame header and first block header. */
    private static byte[] flipInHeaders(byte[] payload, Random random) {
        byte[] copy = payload.clone();
        int at = random.nextInt(Math.min(copy.length, 12));
        copy[at] ^= (byte) (1 << random.nextInt(8));
        return copy;
    }
}
