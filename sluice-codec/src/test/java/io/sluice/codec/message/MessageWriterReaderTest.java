package io.sluice.codec.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.codec.CodecConfig;
import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.error.LimitExceededException;
import io.sluice.codec.error.UnknownMessageTypeException;
import io.sluice.codec.error.UnsupportedVersionException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MessageWriterReaderTest {

    static AllTypes sample(int seed, int depth) {
        AllTypes m = new AllTypes();
        m.flag = seed % 2 == 0;
        m.b = (byte) (seed * 31);
        m.s = (short) (-seed * 1000);
        m.i = seed % 3 == 0 ? Integer.MIN_VALUE : seed * 123_457;
        m.l = seed % 3 == 1 ? Long.MAX_VALUE : -seed * 1_000_000_007L;
        m.f = seed + 0.25f;
        m.d = -seed / 3.0;
        m.uuid = new UUID(seed, ~seed);
        m.bytes = seed % 4 == 3 ? null : new byte[seed % 40];
        if (m.bytes != null) {
            Arrays.fill(m.bytes, (byte) seed);
        }
        m.ints = new int[] {seed, -1, Integer.MAX_VALUE};
        m.longs = seed % 5 == 0 ? null : new long[] {Long.MIN_VALUE, seed};
        m.str = "héllo-" + seed + "-日本-\uD83D\uDE00";
        m.endpoint = seed % 3 == 2 ? null : Endpoint.of("node-" + seed + ".example", 9000 + seed);
        m.strings = new ArrayList<>(List.of("a", "", "ü" + seed));
        m.map = new LinkedHashMap<>(Map.of("k" + seed, (long) seed));
        m.endpointMap = new LinkedHashMap<>();
        if (depth > 0) {
            m.children = new ArrayList<>();
            m.children.add(sample(seed + 1, depth - 1));
            m.children.add(null);
            m.endpointMap.put(Endpoint.of("10.0.0." + seed, 1), sample(seed + 2, depth - 1));
            m.child = sample(seed + 3, depth - 1);
        }
        return m;
    }

    @Test
    void shouldRoundTripEveryFieldKindNestedThreeDeepThroughEveryBufferSize() {
        AllTypes m = sample(1, 2);
        try (MessageWriter w = new MessageWriter();
                MessageReader r = new MessageReader(AllTypes.REGISTRY)) {
            byte[] reference = Chunks.write(w, m, 1 << 20, false);
            for (int size = 1; size <= 64; size++) {
                byte[] bytes = Chunks.write(w, m, size, size % 3 == 0);
                assertArrayEquals(reference, bytes, "written through " + size);
                assertEquals(m, Chunks.read(r, bytes, size, size % 2 == 0), "read through " + size);
            }
        }
    }

    @Test
    void shouldResumeMidFieldInBuffersThatStartWithRoomForTheDirectPath() {
        AllTypes m = sample(1, 3);
        try (MessageWriter w = new MessageWriter();
                MessageReader r = new MessageReader(AllTypes.REGISTRY)) {
            byte[] reference = Chunks.write(w, m, 1 << 20, false);
            assertTrue(reference.length > 4 * MessageWriter.SPILL_BYTES, "message long enough to split many times");
            for (int size = MessageWriter.SPILL_THRESHOLD; size <= MessageWriter.SPILL_THRESHOLD + 80; size++) {
                byte[] bytes = Chunks.write(w, m, size, size % 2 == 0);
                assertArrayEquals(reference, bytes, "written through " + size);
                assertEquals(m, Chunks.read(r, bytes, size, false), "read through " + size);
            }
        }
    }

    @Test
    void shouldWriteTheSameBytesWhateverRoomEachCallFinds() {
        java.util.Random random = new java.util.Random(42);
        try (MessageWriter w = new MessageWriter();
                MessageReader r = new MessageReader(AllTypes.REGISTRY)) {
            for (int round = 0; round < 300; round++) {
                AllTypes m = sample(round, round % 3);
                byte[] reference = Chunks.write(w, m, 1 << 20, false);
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                boolean done;
                int calls = 0;
                do {
                    int room = switch (random.nextInt(3)) {
                        case 0 -> random.nextInt(MessageWriter.SPILL_THRESHOLD);
                        case 1 -> MessageWriter.SPILL_THRESHOLD - 8 + random.nextInt(16);
                        default -> MessageWriter.SPILL_BYTES + random.nextInt(200) - 100;
                    };
                    // a buffer already partly used by earlier messages: the room starts at a non-zero position
                    ByteBuffer buf = ByteBuffer.allocate(room + 5).position(5);
                    w.setBuffer(buf);
                    done = w.write(m);
                    assertTrue(done || !buf.hasRemaining(), "an unfinished call leaves the buffer full");
                    out.write(buf.array(), 5, buf.position() - 5);
                    assertTrue(++calls < 1_000_000, "writer does not finish");
                } while (!done);
                assertArrayEquals(reference, out.toByteArray(), "round " + round);
                assertEquals(m, Chunks.read(r, out.toByteArray(), 1 << 20, false));
            }
        }
    }

    @Test
    void shouldStartTheNextMessageCleanAfterAResetInTheMiddleOfASpilledOne() {
        AllTypes big = sample(3, 2);
        AllTypes small = sample(8, 0);
        try (MessageWriter w = new MessageWriter();
                MessageReader r = new MessageReader(AllTypes.REGISTRY)) {
            ByteBuffer tiny = ByteBuffer.allocate(16);
            w.setBuffer(tiny);
            assertFalse(w.write(big), "16 bytes cannot hold it; the rest waits in the spill");
            w.reset();
            byte[] bytes = Chunks.write(w, small, 16, false);
            assertArrayEquals(Chunks.write(new MessageWriter(), small, 1 << 16, false), bytes);
            assertEquals(small, Chunks.read(r, bytes, 16, false));
        }
    }

    @Test
    void shouldReuseOneWriterAndReaderAcrossManyMessages() {
        try (MessageWriter w = new MessageWriter();
                MessageReader r = new MessageReader(AllTypes.REGISTRY)) {
            for (int seed = 0; seed < 30; seed++) {
                AllTypes m = sample(seed, seed % 3);
                byte[] bytes = Chunks.write(w, m, 7 + seed, false);
                assertEquals(m, Chunks.read(r, bytes, 5 + seed, true));
            }
        }
    }

    @Test
    void shouldReadMessagesBackToBackFromOneBuffer() {
        try (MessageWriter w = new MessageWriter();
                MessageReader r = new MessageReader(AllTypes.REGISTRY)) {
            ByteBuffer buf = ByteBuffer.allocate(1 << 16);
            w.setBuffer(buf);
            for (int seed = 0; seed < 5; seed++) {
                assertTrue(w.write(sample(seed, 1)));
            }
            buf.flip();
            r.setBuffer(buf);
            for (int seed = 0; seed < 5; seed++) {
                assertEquals(sample(seed, 1), r.read());
            }
            assertFalse(buf.hasRemaining());
            assertNull(r.read(), "no bytes left, nothing to read");
        }
    }

    @Test
    void shouldRejectUnknownTypeIdNamingIt() {
        byte[] bytes = {(byte) 43, 0};
        MessageReader r = new MessageReader(AllTypes.REGISTRY);
        r.setBuffer(ByteBuffer.wrap(bytes));
        UnknownMessageTypeException e = assertThrows(UnknownMessageTypeException.class, r::read);
        assertTrue(e.getMessage().contains("42"), e.getMessage());
    }

    @Test
    void shouldRejectNewerSchemaVersionNamingTypeAndVersions() {
        byte[] bytes = {(byte) (AllTypes.TYPE_ID + 1), 3};
        MessageReader r = new MessageReader(AllTypes.REGISTRY);
        r.setBuffer(ByteBuffer.wrap(bytes));
        UnsupportedVersionException e = assertThrows(UnsupportedVersionException.class, r::read);
        assertTrue(e.getMessage().contains("AllTypes") && e.getMessage().contains("3"), e.getMessage());
    }

    @Test
    void shouldRejectNestingDeeperThanConfigured() {
        CodecConfig shallow = new CodecConfig(3, 1 << 20, 1 << 10, 1 << 10, 1 << 20);
        AllTypes deep = sample(1, 4);
        try (MessageWriter w = new MessageWriter(shallow)) {
            assertThrows(LimitExceededException.class, () -> Chunks.write(w, deep, 64, false));
        }
        byte[] bytes;
        try (MessageWriter w = new MessageWriter()) {
            bytes = Chunks.write(w, deep, 64, false);
        }
        MessageReader r = new MessageReader(AllTypes.REGISTRY, shallow);
        LimitExceededException e = assertThrows(LimitExceededException.class, () -> Chunks.read(r, bytes, 64, false));
        assertTrue(e.getMessage().contains("nesting depth"), e.getMessage());
    }

    @Test
    void shouldNotFinishAWriteIntoAZeroLengthBufferAndResumeLater() {
        AllTypes m = sample(2, 0);
        try (MessageWriter w = new MessageWriter()) {
            w.setBuffer(ByteBuffer.allocate(0));
            assertFalse(w.write(m));
            ByteBuffer big = ByteBuffer.allocate(4096);
            w.setBuffer(big);
            assertTrue(w.write(m));
            big.flip();
            byte[] bytes = new byte[big.remaining()];
            big.get(bytes);
            assertEquals(m, Chunks.read(new MessageReader(AllTypes.REGISTRY), bytes, 3, false));
        }
    }

    @Test
    void shouldReadFromReadOnlyAndOffsetSlicesAndRefuseToWriteIntoReadOnly() {
        AllTypes m = sample(4, 1);
        byte[] bytes;
        try (MessageWriter w = new MessageWriter()) {
            bytes = Chunks.write(w, m, 1 << 16, false);
            assertThrows(
                    java.nio.ReadOnlyBufferException.class,
                    () -> w.setBuffer(ByteBuffer.allocate(8).asReadOnlyBuffer()));
        }
        byte[] padded = new byte[bytes.length + 10];
        System.arraycopy(bytes, 0, padded, 7, bytes.length);
        ByteBuffer direct = ByteBuffer.allocateDirect(padded.length).put(padded).flip();
        for (ByteBuffer b : List.of(
                ByteBuffer.wrap(padded, 7, bytes.length).slice().asReadOnlyBuffer(),
                direct.position(7).limit(7 + bytes.length).slice().asReadOnlyBuffer())) {
            MessageReader r = new MessageReader(AllTypes.REGISTRY);
            r.setBuffer(b);
            assertEquals(m, r.read());
            assertFalse(b.hasRemaining());
        }
    }
}
