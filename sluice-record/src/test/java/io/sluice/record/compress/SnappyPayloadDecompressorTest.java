package io.sluice.record.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.ByteWindow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.SnappyOutputStream;

/** Forged block lengths against the snappy decoder's window: refused before any room is reserved. */
class SnappyPayloadDecompressorTest {

    private static final int WINDOW = 1024;
    private static final long CEILING = 256L * 1024 * 1024;

    private static ByteWindow drain(byte[] payload, ByteBuffer window) throws BatchFormatException {
        try (SnappyPayloadDecompressor decompressor = new SnappyPayloadDecompressor()) {
            decompressor.begin(ByteBuffer.wrap(payload), 0, payload.length);
            ByteWindow drained = new ByteWindow().streaming(window, decompressor, CEILING);
            drained.drainAll(0);
            return drained;
        }
    }

    @Test
    void shouldRefuseABlockDeclaringMoreThanItsBytesCanDecodeToWithoutGrowingTheWindow() throws IOException {
        ByteArrayOutputStream forged = new ByteArrayOutputStream();
        forged.write(SnappyFrameLayout.XERIAL_MAGIC);
        forged.write(new byte[] {0, 0, 0, 1, 0, 0, 0, 1}); // version 1, compatible version 1
        byte[] block = {(byte) 0x80, (byte) 0x80, (byte) 0x80, 0x30, 0, 0, 0, 0, 0, 0}; // declares 100,663,296 bytes
        forged.write(new byte[] {0, 0, 0, (byte) block.length});
        forged.write(block);
        ByteBuffer window = ByteBuffer.allocateDirect(WINDOW);
        BatchFormatException e = assertThrows(BatchFormatException.class, () -> drain(forged.toByteArray(), window));
        assertEquals(BatchFormatException.Reason.CORRUPT_PAYLOAD, e.reason());
        assertTrue(e.getMessage().contains("declares 100663296 decompressed bytes"), e.getMessage());
    }

    @Test
    void shouldStillDecodeTheMostCompressibleBlocks() throws Exception {
        byte[] zeros = new byte[3 * 1024 * 1024];
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (SnappyOutputStream out = new SnappyOutputStream(compressed, 1024 * 1024)) {
            out.write(zeros);
        }
        ByteWindow drained = drain(compressed.toByteArray(), ByteBuffer.allocateDirect(WINDOW));
        byte[] decoded = new byte[drained.limit()];
        drained.buffer().get(0, decoded);
        assertArrayEquals(zeros, decoded);
        assertTrue(compressed.size() * 20 < zeros.length, "compressed to " + compressed.size() + " bytes");
    }
}
