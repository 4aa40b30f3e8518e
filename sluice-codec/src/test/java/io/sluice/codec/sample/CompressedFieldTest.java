package io.sluice.codec.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.codec.CodecConfig;
import io.sluice.codec.error.LimitExceededException;
import io.sluice.codec.message.Chunks;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class CompressedFieldTest {

    @Test
    void shouldRoundTripCompressedPayloadAbove40KbGrowingTheScratchThrough16ByteChunks() {
        PartitionStateReport report = ClusterFixtures.report(2000, 11);
        FullPartitionMap full = new FullPartitionMap(4, ClusterFixtures.partitionMap(50, 5000, 12));
        try (MessageWriter w = new MessageWriter();
                MessageReader r = new MessageReader(ClusterMessages.REGISTRY)) {
            int initial = CodecConfig.DEFAULT.scratchInitialBytes();
            byte[] reportBytes = Chunks.write(w, report, 16, true);
            assertTrue(reportBytes.length > 40_000, "compressed report is " + reportBytes.length + " bytes");
            assertTrue(w.scratchCapacity() > initial, "scratch grew to " + w.scratchCapacity());
            assertEquals(report, Chunks.read(r, reportBytes, 16, false));

            byte[] mapBytes = Chunks.write(w, full, 16, false);
            assertTrue(mapBytes.length > 40_000, "compressed map is " + mapBytes.length + " bytes");
            assertEquals(full, Chunks.read(r, mapBytes, 16, true));

            int retained = w.scratchCapacity();
            assertArrayEquals(reportBytes, Chunks.write(w, report, 16, true), "reused writer writes the same bytes");
            assertEquals(retained, w.scratchCapacity(), "scratch retained at the largest size seen, not regrown");
        }
    }

    @Test
    void shouldTrimScratchAboveRetainCapAndOnRequest() {
        CodecConfig small = CodecConfig.DEFAULT.withScratch(1024, 8192);
        try (MessageWriter w = new MessageWriter(small)) {
            Chunks.write(w, ClusterFixtures.report(10, 1), 64, false);
            int afterSmall = w.scratchCapacity();
            assertTrue(afterSmall > 0 && afterSmall <= 8192, "small field keeps scratch " + afterSmall);
            Chunks.write(w, ClusterFixtures.report(3000, 1), 4096, false);
            assertTrue(w.scratchCapacity() <= 8192, "big field trimmed back, capacity " + w.scratchCapacity());
            Chunks.write(w, ClusterFixtures.report(10, 1), 64, false);
            w.trimScratch();
            assertEquals(0, w.scratchCapacity());
        }
    }

    @Test
    void shouldRejectCompressedFieldDeclaringMoreThanTheUncompressedCap() {
        byte[] bytes;
        try (MessageWriter w = new MessageWriter()) {
            bytes = Chunks.write(w, ClusterFixtures.report(2000, 3), 1 << 16, false);
        }
        MessageReader r =
                new MessageReader(ClusterMessages.REGISTRY, CodecConfig.DEFAULT.withMaxUncompressedFieldBytes(10_000));
        LimitExceededException e = assertThrows(LimitExceededException.class, () -> Chunks.read(r, bytes, 100, false));
        assertTrue(e.getMessage().contains("PartitionStateReport.partitions"), e.getMessage());
    }

    @Test
    void shouldRefuseToWriteFieldLargerThanTheUncompressedCap() {
        CodecConfig tight = CodecConfig.DEFAULT.withMaxUncompressedFieldBytes(1000);
        try (MessageWriter w = new MessageWriter(tight)) {
            w.setBuffer(ByteBuffer.allocate(1 << 16));
            assertThrows(LimitExceededException.class, () -> w.write(ClusterFixtures.report(500, 3)));
            w.reset();
            w.setBuffer(ByteBuffer.allocate(1 << 16));
            assertTrue(w.write(ClusterFixtures.report(1, 3)), "writer usable after reset");
        }
    }
}
