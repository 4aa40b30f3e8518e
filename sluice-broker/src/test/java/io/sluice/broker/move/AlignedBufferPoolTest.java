package io.sluice.broker.move;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** {@link AlignedBufferPool}: aligned buffers of one size, reused up to a bound, foreign buffers refused. */
class AlignedBufferPoolTest {
    private static final int BYTES = 64 * 1024;
    private static final int ALIGNMENT = 4096;

    @Test
    void shouldHandOutClearedAlignedDirectBuffersOfItsSize() {
        ByteBuffer buffer = new AlignedBufferPool(BYTES, ALIGNMENT, 1).take();
        assertTrue(buffer.isDirect());
        assertEquals(BYTES, buffer.capacity());
        assertEquals(0, buffer.alignmentOffset(0, ALIGNMENT));
        assertEquals(0, buffer.position());
        assertEquals(BYTES, buffer.limit());
    }

    /** An allocation that happens to start on the boundary must not hand out a longer buffer (CI caught one). */
    @Test
    void shouldHandOutExactlyItsSizeWhereverTheAllocationStarts() {
        AlignedBufferPool pool = new AlignedBufferPool(4096, 4096, 0);
        for (int i = 0; i < 2048; i++) {
            ByteBuffer buffer = pool.take();
            assertEquals(4096, buffer.capacity(), "buffer " + i);
            assertEquals(0, buffer.alignmentOffset(0, 4096), "buffer " + i);
            pool.release(buffer);
        }
    }

    @Test
    void shouldReuseAReleasedBufferClearedAndKeepNoMoreThanItsBound() {
        AlignedBufferPool pool = new AlignedBufferPool(BYTES, ALIGNMENT, 1);
        ByteBuffer first = pool.take();
        ByteBuffer second = pool.take();
        assertNotSame(first, second);
        first.position(100).limit(200);
        pool.release(first);
        pool.release(second);
        assertEquals(1, pool.kept(), "the second release is over the bound");
        ByteBuffer again = pool.take();
        assertSame(first, again);
        assertEquals(0, again.position());
        assertEquals(BYTES, again.limit());
        assertEquals(0, pool.kept());
        assertNotSame(second, pool.take(), "a dropped buffer is not handed out again");
    }

    @Test
    void shouldRefuseABufferItCouldNotHaveHandedOut() {
        AlignedBufferPool pool = new AlignedBufferPool(BYTES, ALIGNMENT, 4);
        assertThrows(IllegalArgumentException.class, () -> pool.release(ByteBuffer.allocate(BYTES)));
        assertThrows(IllegalArgumentException.class, () -> pool.release(ByteBuffer.allocateDirect(BYTES / 2)));
        ByteBuffer misaligned = ByteBuffer.allocateDirect(BYTES + 2 * ALIGNMENT).alignedSlice(ALIGNMENT);
        assertThrows(IllegalArgumentException.class, () -> pool.release(misaligned.slice(1, BYTES)));
        assertEquals(0, pool.kept());
    }

    @Test
    void shouldRefuseANonsensicalShape() {
        assertThrows(IllegalArgumentException.class, () -> new AlignedBufferPool(0, ALIGNMENT, 1));
        assertThrows(IllegalArgumentException.class, () -> new AlignedBufferPool(BYTES, 3000, 1));
        assertThrows(IllegalArgumentException.class, () -> new AlignedBufferPool(BYTES, ALIGNMENT, -1));
    }
}
