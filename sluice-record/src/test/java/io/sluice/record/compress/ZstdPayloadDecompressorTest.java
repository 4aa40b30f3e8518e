package io.sluice.record.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdOutputStream;
import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.ByteWindow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The one-call decode of a whole zstd payload against the streaming decode it replaces: the same
 * bytes, or the same error, for every payload, damaged or not, at every ceiling.
 */
class ZstdPayloadDecompressorTest {

    private static final long NO_CEILING = Long.MAX_VALUE;
    private static final int SMALL_WINDOW = 1024;

    /**
     * Where libzstd's streaming decoder reports a corrupt block depends on the room in its output:
     * with the whole frame's content size of room it decodes the frame in one pass and fails at
     * its first byte, with less it fails at the block. The window a one-call attempt has grown gives
     * that room, so for undecodable payloads the reported byte may move; the verdict and the rest of
     * the message may not.
     */
    private static final Pattern UNDECODABLE_AT = Pattern.compile("undecodable at compressed byte \\d+");

    /** What draining a payload gave: the bytes, or the error message; and whether one call decoded it. */
    record Outcome(byte[] bytes, String error, boolean whole) {
        void assertSameAs(Outcome streamed, String what) {
            assertEquals(withoutPosition(streamed.error), withoutPosition(error), what);
            assertArrayEquals(streamed.bytes, bytes, what);
        }

        private static String withoutPosition(String error) {
            return error == null ? null : UNDECODABLE_AT.matcher(error).replaceAll("undecodable at compressed byte N");
        }
    }

    static Outcome drain(ZstdPayloadDecompressor decompressor, byte[] payload, long ceiling, boolean directSource) {
        ByteBuffer source =
                directSource ? ByteBuffer.allocateDirect(payload.length + 3) : ByteBuffer.allocate(payload.length + 3);
        source.put(3, payload);
        long wholeBefore = decompressor.wholePayloadDecodes();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            decompressor.begin(source, 3, 3 + payload.length);
            StoredPayloads.readAll(
                    new ByteWindow().streaming(ByteBuffer.allocateDirect(SMALL_WINDOW), decompressor, ceiling), out);
            return new Outcome(out.toByteArray(), null, decompressor.wholePayloadDecodes() > wholeBefore);
        } catch (BatchFormatException e) {
            return new Outcome(
                    null, e.reason() + ": " + e.getMessage(), decompressor.wholePayloadDecodes() > wholeBefore);
        }
    }

    static byte[] randomBytes(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    static byte[] text(Random random, int size) {
        StringBuilder json = new StringBuilder();
        while (json.length() < size) {
            json.append("{\"user\":")
                    .append(random.nextInt(1000))
                    .append(",\"event\":\"click\",\"page\":\"/p/")
                    .append(random.nextInt(50))
                    .append("\"}");
        }
        return Arrays.copyOf(json.toString().getBytes(StandardCharsets.US_ASCII), size);
    }

    /** A frame as Kafka's producer writes it: streamed in small writes, no content size. */
    static byte[] streamedFrame(byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZstdOutputStream zstd = new ZstdOutputStream(out, 3)) {
            for (int at = 0; at < content.length; at += 16 * 1024) {
                zstd.write(content, at, Math.min(16 * 1024, content.length - at));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A one-shot frame with its content size (single segment) and a content checksum. */
    static byte[] sizedFrame(byte[] content) {
        try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
            return ctx.setLevel(1).setChecksum(true).setContentSize(true).compress(content);
        }
    }

    /** A frame of raw blocks written by hand, declaring a window of 2^windowLog bytes. */
    static byte[] rawFrame(byte[] content, int windowLog) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeLittleEndian(out, ZstdFrameLayout.FRAME_MAGIC, ZstdFrameLayout.MAGIC_SIZE);
        out.write(0);
        out.write((windowLog - ZstdFrameLayout.WINDOW_LOG_BASE) << ZstdFrameLayout.WINDOW_EXPONENT_SHIFT);
        int blockMax = Math.min(1 << windowLog, ZstdFrameLayout.BLOCK_SIZE_MAX);
        int at = 0;
        do {
            int size = Math.min(blockMax, content.length - at);
            boolean last = at + size == content.length;
            writeLittleEndian(
                    out,
                    size << ZstdFrameLayout.BLOCK_SIZE_SHIFT | (last ? ZstdFrameLayout.LAST_BLOCK_BIT : 0),
                    ZstdFrameLayout.BLOCK_HEADER_SIZE);
            out.write(content, at, size);
            at += size;
        } while (at < content.length);
        return out.toByteArray();
    }

    private static void writeLittleEndian(ByteArrayOutputStream out, int value, int bytes) {
        for (int i = 0; i < bytes; i++) {
            out.write(value >>> (8 * i));
        }
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.write(part, 0, part.length);
        }
        return out.toByteArray();
    }

    private static void assertSameAsStreaming(byte[] payload, long ceiling, boolean expectWhole, String what) {
        try (ZstdPayloadDecompressor whole = new ZstdPayloadDecompressor();
                ZstdPayloadDecompressor streaming = new ZstdPayloadDecompressor(0)) {
            Outcome streamed = drain(streaming, payload, ceiling, true);
            assertEquals(false, streamed.whole, what);
            Outcome ours = drain(whole, payload, ceiling, true);
            ours.assertSameAs(streamed, what);
            assertEquals(expectWhole, ours.whole, what + ": decoded in one call");
        }
    }

    @Test
    void shouldDecodeKafkaStyleRandomAndTextPayloadsInOneCall() {
        Random random = new Random(1);
        byte[] randomContent = randomBytes(random, 211_000);
        byte[] textContent = text(random, 300_000);
        assertSameAsStreaming(streamedFrame(randomContent), NO_CEILING, true, "random");
        assertSameAsStreaming(streamedFrame(textContent), NO_CEILING, true, "text");
        assertSameAsStreaming(sizedFrame(textContent), NO_CEILING, true, "sized text with checksum");
        try (ZstdPayloadDecompressor whole = new ZstdPayloadDecompressor()) {
            assertArrayEquals(randomContent, drain(whole, streamedFrame(randomContent), NO_CEILING, false).bytes);
        }
    }

    @Test
    void shouldDecodeConcatenatedFramesLikeStreaming() {
        Random random = new Random(2);
        byte[] payload = concat(
                streamedFrame(randomBytes(random, 5000)),
                sizedFrame(text(random, 7000)),
                rawFrame(randomBytes(random, 300), 17));
        assertSameAsStreaming(payload, NO_CEILING, true, "three frames");
    }

    @Test
    void shouldLeaveTruncatedAndTrailingGarbagePayloadsToTheStreamingVerdict() {
        Random random = new Random(3);
        byte[] frame = streamedFrame(text(random, 50_000));
        for (int cut : new int[] {1, 4, 5, 6, frame.length / 2, frame.length - 4, frame.length - 1}) {
            assertSameAsStreaming(Arrays.copyOf(frame, cut), NO_CEILING, false, "truncated to " + cut);
        }
        assertSameAsStreaming(concat(frame, new byte[] {7}), NO_CEILING, false, "one trailing byte");
        assertSameAsStreaming(concat(frame, randomBytes(random, 40)), NO_CEILING, false, "trailing garbage");
        assertSameAsStreaming(new byte[0], NO_CEILING, false, "empty payload");
        assertSameAsStreaming(randomBytes(random, 1000), NO_CEILING, false, "garbage");
    }

    @Test
    void shouldRejectACorruptBlockWithTheStreamingErrorAfterTryingOneCall() {
        Random random = new Random(4);
        byte[] frame = streamedFrame(text(random, 60_000));
        frame[frame.length / 2] ^= 0x55;
        frame[frame.length / 2 + 1] ^= 0x11;
        assertSameAsStreaming(frame, NO_CEILING, false, "corrupt block");
    }

    @Test
    void shouldDecodeExactlyTheCeilingInOneCallAndStreamOneByteMoreIntoTheCeilingError() {
        byte[] content = randomBytes(new Random(5), 200_000);
        byte[] frame = rawFrame(content, 17);
        assertSameAsStreaming(frame, content.length, true, "exactly the ceiling");
        assertSameAsStreaming(frame, content.length - 1, false, "one byte over the ceiling");
        try (ZstdPayloadDecompressor whole = new ZstdPayloadDecompressor()) {
            Outcome over = drain(whole, frame, content.length - 1, true);
            assertTrue(over.error.startsWith("DECOMPRESSED_TOO_LARGE"), over.error);
        }
        assertSameAsStreaming(streamedFrame(new byte[3 << 20]), 1 << 20, false, "bomb above the ceiling");
    }

    @Test
    void shouldStreamAWindowLargerThanTheStreamingDecoderAccepts() {
        byte[] frame = rawFrame(randomBytes(new Random(6), 1000), 28);
        try (ZstdPayloadDecompressor streaming = new ZstdPayloadDecompressor(0)) {
            assertTrue(drain(streaming, frame, NO_CEILING, true).error != null, "libzstd streams windows <= 2^27 only");
        }
        assertSameAsStreaming(frame, NO_CEILING, false, "2^28 window");
        assertSameAsStreaming(rawFrame(randomBytes(new Random(6), 1000), 27), NO_CEILING, true, "2^27 window");
    }

    @Test
    void shouldGrowTheWindowAtMostToTheOneCallLimitAndStreamLargerPayloads() throws BatchFormatException {
        Random random = new Random(7);
        int limit = 100_000;
        try (ZstdPayloadDecompressor decompressor = new ZstdPayloadDecompressor(limit)) {
            ByteBuffer fits = ByteBuffer.allocateDirect(80_000);
            fits.put(0, rawFrame(randomBytes(random, 70_000), 17));
            decompressor.begin(fits, 0, ZstdFrameLayout.MAGIC_SIZE + 2 + ZstdFrameLayout.BLOCK_HEADER_SIZE + 70_000);
            ByteWindow window =
                    new ByteWindow().streaming(ByteBuffer.allocateDirect(SMALL_WINDOW), decompressor, NO_CEILING);
            assertTrue(window.request(1));
            assertEquals(70_000, window.available());
            assertTrue(
                    window.buffer().capacity() <= limit,
                    "window grew to " + window.buffer().capacity());
            byte[] large = rawFrame(randomBytes(random, 150_000), 17);
            ByteBuffer tooLarge = ByteBuffer.allocateDirect(large.length).put(0, large);
            long wholeBefore = decompressor.wholePayloadDecodes();
            ByteBuffer reused = window.buffer();
            decompressor.begin(tooLarge, 0, large.length);
            window.streaming(reused, decompressor, NO_CEILING);
            long total = 0;
            while (window.hasRemaining()) {
                total += window.available();
                window.position(window.limit());
            }
            assertEquals(150_000, total);
            assertEquals(wholeBefore, decompressor.wholePayloadDecodes());
            assertTrue(
                    window.buffer().capacity() <= limit,
                    "window grew to " + window.buffer().capacity());
        }
    }

    @Test
    void shouldBoundRawFramesExactlyInEitherByteOrderAndRefuseSkippableFrames() {
        Random random = new Random(8);
        byte[] frame = concat(rawFrame(randomBytes(random, 300_000), 17), rawFrame(randomBytes(random, 5), 10));
        for (java.nio.ByteOrder order :
                new java.nio.ByteOrder[] {java.nio.ByteOrder.BIG_ENDIAN, java.nio.ByteOrder.LITTLE_ENDIAN}) {
            ByteBuffer source =
                    ByteBuffer.allocate(frame.length + 2).order(order).put(1, frame);
            assertEquals(300_005, ZstdFrameLayout.decompressedBound(source, 1, 1 + frame.length), order.toString());
            assertEquals(
                    ZstdFrameLayout.NOT_BOUNDED,
                    ZstdFrameLayout.decompressedBound(source, 1, frame.length),
                    order + " truncated by one byte");
        }
        byte[] skippable = {0x50, 0x2A, 0x4D, 0x18, 0, 0, 0, 0};
        assertEquals(ZstdFrameLayout.NOT_BOUNDED, ZstdFrameLayout.decompressedBound(ByteBuffer.wrap(skippable), 0, 8));
        assertSameAsStreaming(concat(skippable, frame), NO_CEILING, false, "skippable frame first");
    }

    @Test
    void shouldAgreeWithStreamingOnDamagedPayloadsAtAnyCeiling() {
        Random random = new Random(0x25D);
        byte[][] valid = {
            streamedFrame(randomBytes(random, 20_000)),
            streamedFrame(text(random, 40_000)),
            sizedFrame(text(random, 3000)),
            rawFrame(randomBytes(random, 2000), 12),
            concat(streamedFrame(text(random, 900)), streamedFrame(randomBytes(random, 700))),
            streamedFrame(new byte[150_000]),
        };
        int wholeDecodes = 0;
        int cases = 3000;
        try (ZstdPayloadDecompressor whole = new ZstdPayloadDecompressor();
                ZstdPayloadDecompressor streaming = new ZstdPayloadDecompressor(0)) {
            for (int i = 0; i < cases; i++) {
                byte[] payload = StoredPayloads.mutate(valid[random.nextInt(valid.length)], valid, random, i % 5);
                long ceiling = switch (random.nextInt(4)) {
                    case 0 -> random.nextInt(200_000);
                    case 1 -> 40_000;
                    default -> NO_CEILING;
                };
                boolean direct = random.nextBoolean();
                Outcome streamed = drain(streaming, payload, ceiling, direct);
                Outcome ours = drain(whole, payload, ceiling, direct);
                ours.assertSameAs(streamed, "case " + i);
                wholeDecodes += ours.whole ? 1 : 0;
            }
        }
        assertTrue(wholeDecodes > cases / 10, "only " + wholeDecodes + " cases took the one-call path");
    }
}
