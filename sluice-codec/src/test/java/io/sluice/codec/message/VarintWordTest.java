package io.sluice.codec.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The branch-free varint helpers of {@link WireFormat} against the byte-loop encoder, and writes into buffer slices. */
class VarintWordTest {

    private static void assertSameAsLoop(long v) {
        byte[] loop = new byte[WireFormat.MAX_VARINT64_BYTES];
        int n = WireFormat.encodeVarint(v, loop);
        assertEquals(n, WireFormat.varintLength(v), "length of " + Long.toHexString(v));
        if (n <= Long.BYTES) {
            long word = WireFormat.varintWord(v, n);
            for (int i = 0; i < Long.BYTES; i++) {
                byte expected = i < n ? loop[i] : 0;
                assertEquals(expected, (byte) (word >>> (8 * i)), "byte " + i + " of " + Long.toHexString(v));
            }
        }
    }

    @Property(tries = 2000)
    void shouldPackEveryVarintLikeTheByteLoop(@ForAll long v, @ForAll @IntRange(min = 0, max = 63) int shift) {
        assertSameAsLoop(v);
        assertSameAsLoop(v >>> shift);
    }

    @Test
    void shouldPackEveryLengthBoundary() {
        for (int bits = 0; bits <= 64; bits++) {
            long top = bits == 64 ? -1L : (1L << bits) - 1;
            assertSameAsLoop(top);
            assertSameAsLoop(top + 1);
        }
    }

    @Test
    void shouldWriteTheSameBytesIntoSlicesOfHeapAndDirectBuffers() {
        AllTypes m = MessageWriterReaderTest.sample(4, 1);
        try (MessageWriter w = new MessageWriter()) {
            byte[] reference = Chunks.write(w, m, 1 << 16, false);
            for (boolean direct : new boolean[] {false, true}) {
                ByteBuffer whole = direct
                        ? ByteBuffer.allocateDirect(reference.length + 64)
                        : ByteBuffer.allocate(reference.length + 64);
                ByteBuffer slice = whole.position(13).slice();
                w.setBuffer(slice);
                assertTrue(w.write(m));
                slice.flip();
                byte[] written = new byte[slice.remaining()];
                slice.get(written);
                assertArrayEquals(reference, written, direct ? "direct slice" : "heap slice");
                for (int i = 0; i < 13; i++) {
                    assertEquals(0, whole.get(i), "byte " + i + " before the slice");
                }
            }
        }
    }
}
