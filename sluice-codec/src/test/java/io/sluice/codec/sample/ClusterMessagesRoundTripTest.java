package io.sluice.codec.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.codec.message.Chunks;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterMessagesRoundTripTest {

    @Test
    void shouldRoundTripEveryMessageTypeThroughEveryBufferSizeFrom1To64() {
        List<Message> all = ClusterFixtures.everyType();
        Set<Integer> types = new HashSet<>();
        try (MessageWriter w = new MessageWriter();
                MessageReader r = new MessageReader(ClusterMessages.REGISTRY)) {
            for (Message m : all) {
                types.add(m.typeId());
                byte[] reference = Chunks.write(w, m, 1 << 16, false);
                for (int size = 1; size <= 64; size++) {
                    boolean direct = size % 2 == 0;
                    byte[] bytes = Chunks.write(w, m, size, direct);
                    assertArrayEquals(reference, bytes, m.getClass().getSimpleName() + " written through " + size);
                    Message back = Chunks.read(r, bytes, size, !direct);
                    assertEquals(m, back, m.getClass().getSimpleName() + " read through " + size);
                    assertEquals(m, Chunks.read(r, bytes, 65 - size, direct), "read with another split");
                }
            }
        }
        assertTrue(types.size() >= 11, "every registered type covered: " + types);
    }

    @Test
    void shouldReadEveryMessageFedOneByteAtATimeAfterWritingInOneBuffer() {
        try (MessageWriter w = new MessageWriter();
                MessageReader r = new MessageReader(ClusterMessages.REGISTRY)) {
            for (Message m : ClusterFixtures.everyType()) {
                byte[] bytes = Chunks.write(w, m, 4096, true);
                assertEquals(m, Chunks.read(r, bytes, 1, false));
            }
        }
    }
}
