package io.sluice.codec.sample;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.codec.message.MessageWriter;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Allocation (not time) of the write paths, measured with the thread's allocated-bytes counter. */
class AllocationTest {
    private static final com.sun.management.ThreadMXBean MX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long allocated() {
        return MX.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    private static void writeThrough(MessageWriter w, io.sluice.codec.message.Message m, ByteBuffer buf) {
        buf.clear();
        w.setBuffer(buf);
        while (!w.write(m)) {
            buf.clear();
            w.setBuffer(buf);
        }
    }

    @Test
    void shouldAllocateNothingPerMessageWhenWritingPrimitivesThroughSmallBuffers() {
        PartitionState state = ClusterFixtures.partitionState(new Random(1), 5);
        MoveChunkHeader header = new MoveChunkHeader(1, 2, 3, 4, 5, 6, true);
        ByteBuffer buf = ByteBuffer.allocateDirect(7);
        try (MessageWriter w = new MessageWriter()) {
            for (int i = 0; i < 1000; i++) {
                writeThrough(w, state, buf);
                writeThrough(w, header, buf);
            }
            long before = allocated();
            for (int i = 0; i < 20_000; i++) {
                writeThrough(w, state, buf);
                writeThrough(w, header, buf);
            }
            long perMessage = (allocated() - before) / 40_000;
            assertTrue(perMessage == 0, "allocated " + perMessage + " bytes per message");
        }
    }
}
