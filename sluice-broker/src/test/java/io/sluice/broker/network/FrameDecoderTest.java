package io.sluice.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

class FrameDecoderTest {
    private static final int MAX = 1024;

    @Test
    void shouldSplitFramesAcrossAnySplitOfTheStream() {
        ByteBuf stream = Unpooled.buffer();
        stream.writeInt(3)
                .writeBytes(new byte[] {1, 2, 3})
                .writeInt(0)
                .writeInt(2)
                .writeBytes(new byte[] {9, 8});
        byte[] bytes = new byte[stream.readableBytes()];
        stream.readBytes(bytes);
        for (int split = 0; split <= bytes.length; split++) {
            EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX));
            channel.writeInbound(Unpooled.wrappedBuffer(bytes, 0, split));
            channel.writeInbound(Unpooled.wrappedBuffer(bytes, split, bytes.length - split));
            ByteBuf first = channel.readInbound();
            ByteBuf empty = channel.readInbound();
            ByteBuf last = channel.readInbound();
            assertEquals(3, first.readableBytes());
            assertEquals(0, empty.readableBytes());
            assertEquals(9, last.getByte(0));
            first.release();
            empty.release();
            last.release();
            assertTrue(channel.isOpen());
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void shouldCloseOnANegativeOrOversizedFrameWithoutAllocatingIt() {
        for (int size : new int[] {-1, Integer.MIN_VALUE, MAX + 1, Integer.MAX_VALUE}) {
            EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX));
            channel.writeInbound(Unpooled.buffer().writeInt(size).writeBytes(new byte[16]));
            assertNull(channel.readInbound());
            assertFalse(channel.isOpen(), "size " + size + " must close the connection");
        }
    }

    @Test
    void shouldWaitForATruncatedFrame() {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX));
        channel.writeInbound(Unpooled.buffer().writeInt(100).writeBytes(new byte[99]));
        assertNull(channel.readInbound());
        assertTrue(channel.isOpen());
        channel.finishAndReleaseAll();
    }
}
