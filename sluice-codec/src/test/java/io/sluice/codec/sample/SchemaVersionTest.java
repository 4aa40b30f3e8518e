package io.sluice.codec.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.codec.message.Chunks;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SchemaVersionTest {

    @Test
    void shouldReadAnOlderBrokersV0PartitionStateDefaultingTheNewField() {
        PartitionState v0 = ClusterFixtures.partitionState(new Random(5), 1);
        v0.writeVersion = 0;
        byte[] oldBytes;
        byte[] newBytes;
        try (MessageWriter w = new MessageWriter()) {
            oldBytes = Chunks.write(w, v0, 3, false);
            v0.writeVersion = 1;
            newBytes = Chunks.write(w, v0, 3, false);
        }
        assertTrue(oldBytes.length < newBytes.length, "v0 omits lastStableOffset");
        for (int size = 1; size <= 16; size++) {
            PartitionState back =
                    (PartitionState) Chunks.read(new MessageReader(ClusterMessages.REGISTRY), oldBytes, size, false);
            assertEquals(0, back.writeVersion);
            assertEquals(back.highWatermark, back.lastStableOffset, "v0 reads lastStableOffset as high watermark");
            assertEquals(v0.logEndOffset, back.logEndOffset);
        }
    }
}
