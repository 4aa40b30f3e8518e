package io.sluice.bench.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.wire.StateMessages;
import io.sluice.cluster.state.wire.TopicRecord;
import io.sluice.codec.error.CodecException;
import io.sluice.codec.error.LimitExceededException;
import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** {@link CompressedFieldWriter} and {@link CompressedFieldReader} through {@link ExchangeMessage}'s two fields. */
class CompressedFieldTest {
    private static final com.sun.management.ThreadMXBean MX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static ExchangeMessage exchange(CompressedFieldWriter fields, int partitions, long seed) {
        ExchangeMessage m = new ExchangeMessage(fields);
        m.exchangeId = (int) seed;
        m.local = TopicRecord.of(CompressedFieldBenchmark.topic(partitions, seed));
        m.remote = TopicRecord.of(CompressedFieldBenchmark.topic(partitions, seed + 1));
        return m;
    }

    /** Writes {@code m} through buffers of {@code chunk} bytes and returns every byte written. */
    private static byte[] write(MessageWriter w, Message m, int chunk) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(chunk);
        boolean done;
        do {
            buf.clear();
            w.setBuffer(buf);
            done = w.write(m);
            out.write(buf.array(), 0, buf.position());
        } while (!done);
        return out.toByteArray();
    }

    /** Reads {@code bytes} in slices of {@code chunk}; the message once complete, null if the bytes end first. */
    private static ExchangeMessage read(MessageReader r, byte[] bytes, int chunk) {
        for (int off = 0; off < bytes.length; off += chunk) {
            ByteBuffer slice = ByteBuffer.wrap(bytes, off, Math.min(chunk, bytes.length - off))
                    .slice();
            r.setBuffer(slice);
            Message m = r.read();
            if (m != null) {
                assertEquals(bytes.length, off + slice.position(), "the message ends with the bytes");
                return (ExchangeMessage) m;
            }
        }
        return null;
    }

    private static void assertSameTopics(ExchangeMessage expected, ExchangeMessage actual) {
        assertNotNull(actual, "a complete message");
        assertEquals(expected.exchangeId, actual.exchangeId);
        assertEquals(expected.local.toTopic(), actual.local.toTopic());
        assertEquals(expected.remote.toTopic(), actual.remote.toTopic());
    }

    @Test
    void shouldRoundTripThroughSixteenByteBuffersGrowingTheScratchAndKeepingIt() {
        try (CompressedFieldWriter fields = new CompressedFieldWriter();
                CompressedFieldReader in = new CompressedFieldReader(StateMessages.REGISTRY)) {
            MessageWriter w = new MessageWriter();
            MessageReader r = new MessageReader(ExchangeMessage.registry(in));
            ExchangeMessage big = exchange(fields, 2000, 11);
            byte[] bytes = write(w, big, 16);
            assertTrue(
                    fields.scratchCapacity() > CompressedFieldConfig.DEFAULT.scratchInitialBytes(),
                    "scratch grew to " + fields.scratchCapacity());
            assertSameTopics(big, read(r, bytes, 16));

            int retained = fields.scratchCapacity();
            assertArrayEquals(bytes, write(w, big, 16), "a reused writer writes the same bytes");
            assertEquals(retained, fields.scratchCapacity(), "scratch kept at the largest size seen, not regrown");
            ExchangeMessage small = exchange(fields, 3, 2);
            assertSameTopics(small, read(r, write(w, small, 7), 5));
        }
    }

    @Test
    void shouldRoundTripANullField() {
        try (CompressedFieldWriter fields = new CompressedFieldWriter();
                CompressedFieldReader in = new CompressedFieldReader(StateMessages.REGISTRY)) {
            ExchangeMessage m = exchange(fields, 5, 3);
            m.remote = null;
            ExchangeMessage back =
                    read(new MessageReader(ExchangeMessage.registry(in)), write(new MessageWriter(), m, 3), 3);
            assertNotNull(back);
            assertEquals(m.local.toTopic(), back.local.toTopic());
            assertNull(back.remote);
        }
    }

    @Test
    void shouldTrimTheScratchAboveTheRetainCapAndOnRequest() {
        try (CompressedFieldWriter fields =
                new CompressedFieldWriter(CompressedFieldConfig.DEFAULT.withScratch(1024, 8192))) {
            MessageWriter w = new MessageWriter();
            write(w, exchange(fields, 10, 1), 64);
            int afterSmall = fields.scratchCapacity();
            assertTrue(afterSmall > 0 && afterSmall <= 8192, "a small field keeps scratch " + afterSmall);
            write(w, exchange(fields, 3000, 1), 4096);
            assertTrue(
                    fields.scratchCapacity() <= 8192,
                    "a big field is trimmed back, capacity " + fields.scratchCapacity());
            fields.trimScratch();
            assertEquals(0, fields.scratchCapacity());
        }
    }

    @Test
    void shouldRejectAFieldDeclaringMoreThanTheUncompressedCapBeforeReadingIt() {
        byte[] bytes;
        try (CompressedFieldWriter fields = new CompressedFieldWriter()) {
            bytes = write(new MessageWriter(), exchange(fields, 2000, 3), 1 << 16);
        }
        try (CompressedFieldReader in = new CompressedFieldReader(
                StateMessages.REGISTRY, CompressedFieldConfig.DEFAULT.withMaxUncompressedBytes(10_000))) {
            MessageReader r = new MessageReader(ExchangeMessage.registry(in));
            LimitExceededException e = assertThrows(LimitExceededException.class, () -> read(r, bytes, 100));
            assertTrue(e.getMessage().contains("uncompressed size"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseToWriteAFieldLargerThanTheUncompressedCapAndWriteAgainAfterReset() {
        try (CompressedFieldWriter fields =
                new CompressedFieldWriter(CompressedFieldConfig.DEFAULT.withMaxUncompressedBytes(1000))) {
            MessageWriter w = new MessageWriter();
            w.setBuffer(ByteBuffer.allocate(1 << 16));
            assertThrows(LimitExceededException.class, () -> w.write(exchange(fields, 500, 3)));
            w.reset();
            fields.reset();
            w.setBuffer(ByteBuffer.allocate(1 << 16));
            assertTrue(w.write(exchange(fields, 1, 3)), "writer usable after reset");
        }
    }

    @Test
    void shouldReadEveryTruncationAsIncompleteAndEveryCorruptionAsATypedErrorOrAMessage() {
        byte[] bytes;
        try (CompressedFieldWriter fields = new CompressedFieldWriter()) {
            bytes = write(new MessageWriter(), exchange(fields, 40, 5), 1 << 16);
        }
        try (CompressedFieldReader in = new CompressedFieldReader(StateMessages.REGISTRY)) {
            MessageReader r = new MessageReader(ExchangeMessage.registry(in));
            for (int cut = 0; cut < bytes.length; cut++) {
                r.reset();
                in.reset();
                assertNull(read(r, Arrays.copyOf(bytes, cut), 64), "cut at " + cut + " of " + bytes.length);
            }
            for (int i = 0; i < bytes.length; i++) {
                byte[] bad = bytes.clone();
                bad[i] ^= (byte) 0x5A;
                r.reset();
                in.reset();
                try {
                    read(r, bad, 64);
                } catch (CodecException expected) {
                    // a typed error is the answer to garbage; a message whose bytes happened to stay valid is too
                }
            }
        }
    }

    @Test
    void shouldRejectAnUnknownCompressionId() {
        MessageWriter w = new MessageWriter();
        byte[] bytes = write(
                w,
                new FieldsMessage(ExchangeMessage.TYPE_ID, mw -> mw.writeInt(1) && mw.writeInt(99) && mw.writeInt(0)),
                64);
        try (CompressedFieldReader in = new CompressedFieldReader(StateMessages.REGISTRY)) {
            MessageReader r = new MessageReader(ExchangeMessage.registry(in));
            MalformedInputException e = assertThrows(MalformedInputException.class, () -> read(r, bytes, 64));
            assertTrue(e.getMessage().contains("unknown compression id 99"), e.getMessage());
        }
    }

    @Test
    void shouldAllocateFarLessThanTheOutputPerMessageOnceTheScratchIsWarm() {
        ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
        try (CompressedFieldWriter fields = new CompressedFieldWriter()) {
            MessageWriter w = new MessageWriter();
            ExchangeMessage m = exchange(fields, 500, 9);
            for (int i = 0; i < 20; i++) {
                writeThrough(w, m, buf);
            }
            long before = MX.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 50; i++) {
                writeThrough(w, m, buf);
            }
            long perMessage = (MX.getCurrentThreadAllocatedBytes() - before) / 50;
            assertTrue(perMessage < 1024, "allocated " + perMessage + " bytes per compressed message");
        }
    }

    private static void writeThrough(MessageWriter w, Message m, ByteBuffer buf) {
        buf.clear();
        w.setBuffer(buf);
        while (!w.write(m)) {
            buf.clear();
            w.setBuffer(buf);
        }
    }

    /** A message of {@code typeId} whose fields are whatever {@code fields} writes in one go (enough room given). */
    private record FieldsMessage(int typeId, java.util.function.Predicate<MessageWriter> fields) implements Message {
        @Override
        public boolean writeTo(MessageWriter w) {
            return fields.test(w);
        }

        @Override
        public boolean readFrom(MessageReader r) {
            throw new UnsupportedOperationException("written only");
        }
    }
}
