package io.sluice.record.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.apache.kafka.common.utils.ByteUtils;
import org.junit.jupiter.api.Test;

/**
 * The in-window fast path of {@link RecordCursor} (and its header-shape shortcut) must read
 * every record exactly as the careful byte-by-byte path does: same fields, same error at the
 * same record, for valid records and for damaged ones, read in place and streamed through a
 * window refilled a few bytes at a time.
 */
class RecordCursorFastPathTest {

    /**
     * One fast cursor for all tries, and one streaming cursor, so header shapes and record layouts
     * learned from earlier inputs (in buffers of either byte order) are exercised.
     */
    private static final RecordCursor FAST = new RecordCursor();

    private static final RecordCursor STREAMING = new RecordCursor();
    /** Cursors read with {@link RecordCursor#nextRun} where it reads any record, else {@link RecordCursor#next}. */
    private static final RecordCursor RUNS = new RecordCursor();

    private static final RecordCursor STREAMING_RUNS = new RecordCursor();

    @Property(tries = 3000)
    void shouldReadRecordsExactlyAsTheCarefulPathDoes(
            @ForAll("seeds") long seed, @ForAll @IntRange(min = 0, max = 3) int damage) {
        Random random = new Random(seed);
        byte[] records = encode(randomRecords(random));
        int count = Math.max(1, countRecords(records) + random.nextInt(3) - 1);
        records = damage(records, damage, random);
        for (boolean direct : new boolean[] {false, true}) {
            ByteBuffer buffer = place(records, direct, random);
            int from = buffer.position();
            String careful = carefulTranscript(new RecordCursor().over(buffer, from, from + records.length), count);
            String fast = transcript(FAST.over(buffer, from, from + records.length), count);
            assertEquals(careful, fast, "seed " + seed + " damage " + damage + " direct " + direct);
            String runs = runTranscript(RUNS.over(buffer, from, from + records.length), count, random);
            assertEquals(careful, runs, "runs, seed " + seed + " damage " + damage + " direct " + direct);
            ByteBuffer reusable = ByteBuffer.allocate(64).order(randomOrder(random));
            String streamed = transcript(
                    STREAMING.streaming(reusable, fewBytesAtATime(records, 1 + random.nextInt(600)), Long.MAX_VALUE),
                    count);
            assertEquals(careful, streamed, "streamed, seed " + seed + " damage " + damage);
            ByteBuffer window = (random.nextBoolean() ? ByteBuffer.allocateDirect(64) : ByteBuffer.allocate(64))
                    .order(randomOrder(random));
            String streamedRuns = runTranscript(
                    STREAMING_RUNS.streaming(
                            window, fewBytesAtATime(records, 1 + random.nextInt(6000)), Long.MAX_VALUE),
                    count,
                    random);
            assertEquals(careful, streamedRuns, "streamed runs, seed " + seed + " damage " + damage);
        }
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    @Test
    void shouldNotTrustARememberedHeaderShapeWhenOneLengthByteDiffers() {
        byte[][] keys = {"abc".getBytes(StandardCharsets.UTF_8), "defgh".getBytes(StandardCharsets.UTF_8)};
        byte[][] values = {{1, 2}, {3}};
        byte[] twoAlike = encode(List.of(record(0, keys, values), record(1, keys, values)));
        RecordCursor cursor = new RecordCursor();
        assertTrue(transcript(cursor.over(ByteBuffer.wrap(twoAlike), 0, twoAlike.length), 2)
                .endsWith("end"));
        // Same header count and block length in the second record, but its second header key
        // length byte now claims 60 bytes, more than the record holds.
        byte[] forged = twoAlike.clone();
        int keyAt = lastIndexOf(forged, "defgh".getBytes(StandardCharsets.UTF_8)) - 1;
        assertEquals(10, forged[keyAt], "zigzag length of the 5-byte key");
        forged[keyAt] = 120;
        String careful = carefulTranscript(new RecordCursor().over(ByteBuffer.wrap(forged), 0, forged.length), 2);
        assertTrue(careful.contains("header key length 60 exceeds"), careful);
        assertEquals(careful, transcript(cursor.over(ByteBuffer.wrap(forged), 0, forged.length), 2));
    }

    @Test
    void shouldNotRememberAHeaderShapeWithATwoByteLength() {
        byte[][] keys = {new byte[64]};
        byte[][] values = {{1}};
        byte[] twoAlike = encode(List.of(record(0, keys, values), record(1, keys, values)));
        RecordCursor cursor = new RecordCursor();
        assertTrue(transcript(cursor.over(ByteBuffer.wrap(twoAlike), 0, twoAlike.length), 2)
                .endsWith("end"));
        // The second record's key length (zigzag 128: bytes 0x80 0x01) becomes 0x80 0x02, 128 bytes:
        // only its second byte differs from the first record.
        byte[] forged = twoAlike.clone();
        int secondByte = lastIndexOf(forged, new byte[] {(byte) 0x80, 0x01}) + 1;
        forged[secondByte] = 0x02;
        String careful = carefulTranscript(new RecordCursor().over(ByteBuffer.wrap(forged), 0, forged.length), 2);
        assertTrue(careful.contains("header key length 128 exceeds"), careful);
        assertEquals(careful, transcript(cursor.over(ByteBuffer.wrap(forged), 0, forged.length), 2));
    }

    @Test
    void shouldNotTrustARememberedRecordLayoutWhenTheKeyLengthByteDiffers() {
        byte[][] keys = {"abc".getBytes(StandardCharsets.UTF_8)};
        byte[][] values = {{1}};
        List<Rec> alike = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            alike.add(new Rec(0, 5, i, new byte[] {1, 2, 3, 4}, new byte[] {9, 9, 9, 9}, keys, values));
        }
        byte[] records = encode(alike);
        RecordCursor cursor = new RecordCursor();
        assertTrue(transcript(cursor.over(ByteBuffer.wrap(records), 0, records.length), 3)
                .endsWith("end"));
        // The third record keeps its length, but its key length byte says 6 instead of 4 bytes:
        // the value length is then read from inside the value, and the record no longer adds up.
        byte[] forged = records.clone();
        int keyLengthAt = lastIndexOf(forged, new byte[] {8, 1, 2, 3, 4});
        forged[keyLengthAt] = 12;
        String careful = carefulTranscript(new RecordCursor().over(ByteBuffer.wrap(forged), 0, forged.length), 3);
        assertTrue(careful.contains("error"), careful);
        assertEquals(careful, transcript(cursor.over(ByteBuffer.wrap(forged), 0, forged.length), 3));
    }

    @Test
    void shouldNotTrustARememberedRecordLayoutWhenATimestampDeltaGrowsByAByte() {
        byte[][] keys = {"abc".getBytes(StandardCharsets.UTF_8)};
        byte[][] values = {{1}};
        List<Rec> records = new ArrayList<>();
        records.add(new Rec(0, 5, 0, null, new byte[] {9, 9, 9, 9}, keys, values));
        records.add(new Rec(0, 6, 1, null, new byte[] {9, 9, 9, 9}, keys, values));
        // Same length: one more timestampDelta byte, one value byte fewer; every later field shifts.
        records.add(new Rec(0, 500, 2, null, new byte[] {9, 9, 9}, keys, values));
        byte[] bytes = encode(records);
        String careful = carefulTranscript(new RecordCursor().over(ByteBuffer.wrap(bytes), 0, bytes.length), 3);
        assertTrue(careful.contains("ts=500") && careful.endsWith("end"), careful);
        assertEquals(careful, transcript(new RecordCursor().over(ByteBuffer.wrap(bytes), 0, bytes.length), 3));
    }

    @Test
    void shouldLearnALayoutOnceTwoRecordsOfOneLengthFollowEachOther() throws BatchFormatException {
        byte[][] keys = {"k1".getBytes(StandardCharsets.UTF_8), "k2".getBytes(StandardCharsets.UTF_8)};
        byte[][] values = {{1}, {2, 3}};
        List<Rec> alike = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            alike.add(new Rec(0, i, i, null, new byte[9_000], keys, values));
        }
        byte[] records = encode(alike);
        RecordCursor cursor = new RecordCursor().over(ByteBuffer.wrap(records), 0, records.length);
        cursor.next();
        assertEquals(-1, cursor.learnedLayoutBytes());
        cursor.next();
        int recordBytes = records.length / 3;
        assertEquals(recordBytes, cursor.learnedLayoutBytes(), "a 3-byte value length is part of a layout");
        cursor.next();
        assertEquals(2, cursor.offsetDelta());
        assertEquals(9_000, cursor.valueLength());
        assertEquals(recordBytes * 3, cursor.window().position());
    }

    @Test
    void shouldForgetALayoutLearnedInABufferOfTheOtherByteOrder() throws BatchFormatException {
        // Its words hold the bytes in that order: read in the other order, they would be
        // compared at mirrored places.
        List<Rec> alike = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            alike.add(new Rec(0, i, i, null, new byte[20], new byte[0][], new byte[0][]));
        }
        byte[] records = encode(alike);
        RecordCursor cursor = new RecordCursor().over(ByteBuffer.wrap(records), 0, records.length);
        cursor.next();
        cursor.next();
        assertEquals(records.length / 2, cursor.learnedLayoutBytes());
        cursor.over(ByteBuffer.wrap(records).order(ByteOrder.BIG_ENDIAN), 0, records.length);
        assertEquals(records.length / 2, cursor.learnedLayoutBytes());
        cursor.over(ByteBuffer.wrap(records).order(ByteOrder.LITTLE_ENDIAN), 0, records.length);
        assertEquals(-1, cursor.learnedLayoutBytes());
    }

    @Test
    void shouldNotLearnALayoutWhoseTimestampDeltaTakesFourBytes() throws BatchFormatException {
        List<Rec> alike = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            alike.add(new Rec(0, 1L << 21, i, null, new byte[] {1, 2}, new byte[0][], new byte[0][]));
        }
        byte[] records = encode(alike);
        RecordCursor cursor = new RecordCursor().over(ByteBuffer.wrap(records), 0, records.length);
        cursor.next();
        cursor.next();
        assertEquals(-1, cursor.learnedLayoutBytes());
        assertEquals(1L << 21, cursor.timestampDelta());
    }

    @Test
    void shouldNotTrustALearnedLayoutWhenTheLastHeaderValueLengthDiffers() {
        byte[][] keys = {"abc".getBytes(StandardCharsets.UTF_8), "de".getBytes(StandardCharsets.UTF_8)};
        byte[][] values = {{1, 2}, {3, 4, 5}};
        List<Rec> alike = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            alike.add(new Rec(0, i, i, null, new byte[] {9, 9, 9, 9, 9, 9, 9, 9, 9, 9}, keys, values));
        }
        byte[] records = encode(alike);
        RecordCursor cursor = new RecordCursor();
        assertTrue(transcript(cursor.over(ByteBuffer.wrap(records), 0, records.length), 3)
                .endsWith("end"));
        // The third record's last header value length (zigzag 6: 3 bytes) now says 2 bytes; it is
        // in the word that ends at the record's end.
        byte[] forged = records.clone();
        int valueLengthAt = records.length - 4;
        assertEquals(6, forged[valueLengthAt]);
        forged[valueLengthAt] = 4;
        String careful = carefulTranscript(new RecordCursor().over(ByteBuffer.wrap(forged), 0, forged.length), 3);
        assertTrue(careful.contains("error"), careful);
        assertEquals(careful, transcript(cursor.over(ByteBuffer.wrap(forged), 0, forged.length), 3));
    }

    @Test
    void shouldReadRunsOfOneLayoutAndStopBeforeAnyRecordWithOneByteChanged() throws BatchFormatException {
        byte[][] keys = {
            "abc".getBytes(StandardCharsets.UTF_8),
            "de".getBytes(StandardCharsets.UTF_8),
            "f".getBytes(StandardCharsets.UTF_8)
        };
        byte[][] values = {{1, 2}, {3, 4, 5}, {}};
        List<Rec> alike = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            alike.add(new Rec(0, i, i, new byte[] {7}, new byte[] {9, 9, 9, 9, 9, 9, 9, 9, 9, 9}, keys, values));
        }
        byte[] records = encode(alike);
        int recordBytes = records.length / 40;
        for (boolean direct : new boolean[] {false, true}) {
            ByteBuffer buffer =
                    direct ? ByteBuffer.allocateDirect(records.length) : ByteBuffer.allocate(records.length);
            buffer.put(0, records);
            RecordCursor cursor = new RecordCursor().over(buffer, 0, records.length);
            cursor.next();
            cursor.next();
            assertEquals(38, cursor.nextRun(100), "one run reads the 38 records left");
            assertEquals(recordBytes * 40, cursor.window().position());
            assertEquals(39, cursor.runOffsetDelta(37));
            assertEquals(39, cursor.runTimestampDelta(37));
            // Any one byte of record 20 changed: the run stops before it unless its structure is
            // unchanged, and every record reads as the careful path reads it.
            for (int at = 20 * recordBytes; at < 21 * recordBytes; at++) {
                for (int flip : new int[] {1, 0x40, 0x80, 0xFF}) {
                    byte[] forged = records.clone();
                    forged[at] ^= (byte) flip;
                    ByteBuffer forgedBuffer =
                            direct ? ByteBuffer.allocateDirect(forged.length) : ByteBuffer.allocate(forged.length);
                    forgedBuffer.put(0, forged);
                    String careful = carefulTranscript(new RecordCursor().over(forgedBuffer, 0, forged.length), 40);
                    String runs =
                            runTranscript(new RecordCursor().over(forgedBuffer, 0, forged.length), 40, new Random(at));
                    assertEquals(careful, runs, "byte " + at + " ^ " + flip + " direct " + direct);
                }
            }
        }
    }

    @Test
    void shouldReadRunsFromSlicesEndingExactlyAtTheirCapacity() throws BatchFormatException {
        byte[][] keys = {"abc".getBytes(StandardCharsets.UTF_8)};
        byte[][] values = {{1, 2}};
        List<Rec> alike = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            alike.add(new Rec(0, i, i, null, new byte[] {9, 9, 9, 9, 9, 9, 9, 9, 9, 9}, keys, values));
        }
        byte[] records = encode(alike);
        byte[] around = new byte[records.length + 40];
        System.arraycopy(records, 0, around, 17, records.length);
        ByteBuffer direct = ByteBuffer.allocateDirect(around.length).put(around).flip();
        // heap and direct slices starting 17 bytes into their memory, whose capacity ends at the last record
        ByteBuffer[] slices = {
            ByteBuffer.wrap(around, 17, records.length).slice(),
            direct.slice(17, records.length),
            ByteBuffer.wrap(records).asReadOnlyBuffer()
        };
        assertEquals(17, slices[0].arrayOffset());
        for (ByteBuffer slice : slices) {
            String careful = carefulTranscript(new RecordCursor().over(slice, 0, records.length), 30);
            assertTrue(careful.endsWith("end"), careful);
            assertEquals(careful, runTranscript(new RecordCursor().over(slice, 0, records.length), 30, new Random(1)));
            RecordCursor cursor = new RecordCursor().over(slice, 0, records.length);
            cursor.next();
            cursor.next();
            assertEquals(28, cursor.nextRun(30), slice.toString());
            assertEquals(records.length, cursor.window().position());
        }
    }

    @Test
    void shouldReadNoRunWithoutALearnedLayoutOrPastTheWindow() throws BatchFormatException {
        byte[][] keys = {"abc".getBytes(StandardCharsets.UTF_8)};
        byte[][] values = {{1, 2}};
        List<Rec> alike = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            alike.add(new Rec(0, i, i, null, new byte[] {9, 9, 9, 9, 9, 9, 9, 9, 9, 9}, keys, values));
        }
        byte[] records = encode(alike);
        int recordBytes = records.length / 5;
        RecordCursor cursor = new RecordCursor().over(ByteBuffer.wrap(records), 0, records.length);
        assertEquals(0, cursor.nextRun(5), "no layout learned yet");
        cursor.next();
        cursor.next();
        // the window ends one byte into the fourth record: only the third lies wholly inside it
        cursor.over(ByteBuffer.wrap(records), 2 * recordBytes, 3 * recordBytes + 1);
        assertEquals(1, cursor.nextRun(5));
        assertEquals(0, cursor.nextRun(5));
        assertEquals(0, cursor.nextRun(0));
    }

    @Test
    void shouldPullRecordsThatStraddleARefillWholeIntoTheWindow() throws BatchFormatException {
        byte[][] keys = {"k1".getBytes(StandardCharsets.UTF_8), "k2".getBytes(StandardCharsets.UTF_8)};
        byte[][] values = {{1, 2, 3}, {4}};
        List<Rec> alike = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            alike.add(new Rec(0, 7, i, new byte[] {1, 2, 3, 4}, new byte[300], keys, values));
        }
        byte[] records = encode(alike);
        String careful = carefulTranscript(new RecordCursor().over(ByteBuffer.wrap(records), 0, records.length), 100);
        for (ByteBuffer reusable : new ByteBuffer[] {ByteBuffer.allocateDirect(4096), ByteBuffer.allocate(4096)}) {
            RecordCursor cursor = new RecordCursor();
            // chunks of 1000 bytes: about one record in three straddles a refill
            String streamed =
                    transcript(cursor.streaming(reusable, fewBytesAtATime(records, 1000), Long.MAX_VALUE), 100);
            assertEquals(careful, streamed);
            assertEquals(0, cursor.carefulReads(), "every straddling record was pulled whole into the window");
        }
    }

    @Test
    void shouldLeaveARecordLongerThanHalfTheWindowToTheCarefulPath() throws BatchFormatException {
        List<Rec> large = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            large.add(new Rec(0, 7, i, null, new byte[3000], new byte[0][], new byte[0][]));
        }
        byte[] records = encode(large);
        String careful = carefulTranscript(new RecordCursor().over(ByteBuffer.wrap(records), 0, records.length), 4);
        RecordCursor cursor = new RecordCursor();
        String streamed = transcript(
                cursor.streaming(ByteBuffer.allocate(4096), fewBytesAtATime(records, 1000), Long.MAX_VALUE), 4);
        assertEquals(careful, streamed);
        assertTrue(cursor.carefulReads() > 0, "records above half the window are read across refills");
    }

    @Test
    void shouldKeepTheByteOrderWhenTheStreamingBufferGrows() throws BatchFormatException {
        ByteWindow window = new ByteWindow()
                .streaming(
                        ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN),
                        fewBytesAtATime(new byte[100], 100),
                        Long.MAX_VALUE);
        assertTrue(window.request(50));
        assertEquals(ByteOrder.LITTLE_ENDIAN, window.buffer().order());
    }

    private static int lastIndexOf(byte[] bytes, byte[] part) {
        for (int i = bytes.length - part.length; i >= 0; i--) {
            if (ByteBuffer.wrap(bytes, i, part.length).equals(ByteBuffer.wrap(part))) {
                return i;
            }
        }
        throw new IllegalArgumentException("not found");
    }

    private static String transcript(RecordCursor cursor, int count) {
        return transcript(cursor, count, false);
    }

    private static String carefulTranscript(RecordCursor cursor, int count) {
        return transcript(cursor, count, true);
    }

    private static String transcript(RecordCursor cursor, int count, boolean carefully) {
        StringBuilder out = new StringBuilder();
        try {
            for (int i = 0; i < count; i++) {
                if (carefully) {
                    cursor.nextCarefully();
                } else {
                    cursor.next();
                }
                appendRecord(
                        out,
                        cursor.bodyLength(),
                        cursor.attributes(),
                        cursor.timestampDelta(),
                        cursor.offsetDelta(),
                        cursor);
            }
            out.append(cursor.hasRemaining() ? "trailing bytes" : "end");
        } catch (BatchFormatException e) {
            out.append("error ").append(e.reason()).append(": ").append(e.getMessage());
        }
        return out.toString();
    }

    /**
     * The transcript of reading with runs of random lengths (each record of a run printed from the
     * run accessors and the shared fields), falling back to {@link RecordCursor#next} when a run
     * reads nothing; it must equal the careful one.
     */
    private static String runTranscript(RecordCursor cursor, int count, Random random) {
        StringBuilder out = new StringBuilder();
        try {
            for (int i = 0; i < count; ) {
                int run = cursor.nextRun(random.nextInt(4) == 0 ? 1 + random.nextInt(count - i) : count - i);
                if (run == 0) {
                    cursor.next();
                    appendRecord(
                            out,
                            cursor.bodyLength(),
                            cursor.attributes(),
                            cursor.timestampDelta(),
                            cursor.offsetDelta(),
                            cursor);
                    i++;
                    continue;
                }
                assertTrue(run <= count - i, "a run reads no more records than asked for");
                for (int k = 0; k < run; k++, i++) {
                    appendRecord(
                            out,
                            cursor.bodyLength(),
                            cursor.runAttributes(k),
                            cursor.runTimestampDelta(k),
                            cursor.runOffsetDelta(k),
                            cursor);
                }
                assertEquals(cursor.runOffsetDelta(run - 1), cursor.offsetDelta(), "the last record's fields");
            }
            out.append(cursor.hasRemaining() ? "trailing bytes" : "end");
        } catch (BatchFormatException e) {
            out.append("error ").append(e.reason()).append(": ").append(e.getMessage());
        }
        return out.toString();
    }

    private static void appendRecord(
            StringBuilder out,
            int bodyLength,
            byte attributes,
            long timestampDelta,
            int offsetDelta,
            RecordCursor shared) {
        out.append("record length=")
                .append(bodyLength)
                .append(" attrs=")
                .append(attributes)
                .append(" ts=")
                .append(timestampDelta)
                .append(" off=")
                .append(offsetDelta)
                .append(" key=")
                .append(shared.keyLength())
                .append(" value=")
                .append(shared.valueLength())
                .append(" headers=")
                .append(shared.headerCount())
                .append('\n');
    }

    /** Hands out the bytes {@code chunk} at a time, so records straddle refills. */
    private static ByteWindow.Refill fewBytesAtATime(byte[] bytes, int chunk) {
        int[] next = {0};
        return window -> {
            if (next[0] == bytes.length) {
                return false;
            }
            int count = Math.min(chunk, bytes.length - next[0]);
            window.reserve(count);
            window.buffer().put(window.limit(), bytes, next[0], count);
            next[0] += count;
            window.produced(count);
            return true;
        };
    }

    /** The bytes at a random offset of a heap or direct buffer, with random bytes around them. */
    private static ByteBuffer place(byte[] records, boolean direct, Random random) {
        int before = random.nextInt(8);
        int after = random.nextInt(3) == 0 ? 0 : random.nextInt(16);
        ByteBuffer buffer = (direct
                        ? ByteBuffer.allocateDirect(before + records.length + after)
                        : ByteBuffer.allocate(before + records.length + after))
                .order(randomOrder(random));
        for (int i = 0; i < buffer.capacity(); i++) {
            buffer.put(i, (byte) random.nextInt());
        }
        buffer.put(before, records);
        return buffer.position(before);
    }

    private static ByteOrder randomOrder(Random random) {
        return random.nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    private record Rec(
            int attributes,
            long timestampDelta,
            int offsetDelta,
            byte[] key,
            byte[] value,
            byte[][] headerKeys,
            byte[][] headerValues) {}

    private static Rec record(int offsetDelta, byte[][] headerKeys, byte[][] headerValues) {
        return new Rec(0, offsetDelta * 3L, offsetDelta, null, new byte[] {7, 7}, headerKeys, headerValues);
    }

    /** Records whose headers often repeat one shape, with lengths of 1, 2 and 3 varint bytes. */
    private static List<Rec> randomRecords(Random random) {
        int count = 1 + random.nextInt(random.nextBoolean() ? 4 : 40);
        int headerCount = random.nextInt(4) == 0 ? random.nextInt(20) : random.nextInt(6);
        byte[][] templateKeys = new byte[headerCount][];
        byte[][] templateValues = new byte[headerCount][];
        for (int h = 0; h < headerCount; h++) {
            templateKeys[h] = bytes(random, size(random));
            templateValues[h] = random.nextInt(6) == 0 ? null : bytes(random, size(random));
        }
        // Often all records share one layout (key and value sizes, header lengths), as producers
        // mostly send them; the record-layout shortcut is then taken for every record after the first.
        boolean oneLayout = random.nextBoolean();
        int layoutKeySize = random.nextInt(5) == 0 ? -1 : size(random);
        int layoutValueSize = random.nextInt(8) == 0 ? -1 : random.nextInt(40) == 0 ? 9_000 : size(random);
        // deltas of one to three bytes (a layout decodes them), sometimes four (it cannot)
        int deltaBytes = 1 + random.nextInt(4);
        long deltaBase = deltaBytes == 1 ? 0 : 1L << (7 * (deltaBytes - 1) - 1);
        List<Rec> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[][] keys = templateKeys;
            byte[][] values = templateValues;
            if (oneLayout && random.nextInt(10) != 0) {
                long ts = random.nextInt(3) == 0
                        ? random.nextInt(64)
                        : random.nextInt(3) == 0 ? deltaBase + random.nextInt(32) : random.nextInt(8192);
                int offset = random.nextInt(20) == 0 ? random.nextInt(200) : (int) deltaBase + i;
                byte[] key = layoutKeySize < 0 ? null : bytes(random, layoutKeySize);
                byte[] value = layoutValueSize < 0 ? null : bytes(random, layoutValueSize);
                records.add(new Rec(random.nextInt(20) == 0 ? 1 : 0, ts, offset, key, value, keys, values));
                continue;
            }
            if (random.nextInt(4) == 0) {
                int n = random.nextInt(4) == 0 ? random.nextInt(20) : random.nextInt(6);
                keys = new byte[n][];
                values = new byte[n][];
                for (int h = 0; h < n; h++) {
                    keys[h] = bytes(random, size(random));
                    values[h] = random.nextInt(6) == 0 ? null : bytes(random, size(random));
                }
            }
            long ts = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(64);
                case 1 -> random.nextInt(20_000) - 10_000;
                case 2 -> random.nextLong();
                default -> (long) i * random.nextInt(1000);
            };
            int offset = random.nextInt(10) == 0 ? random.nextInt() : i;
            byte[] key = random.nextBoolean() ? null : bytes(random, size(random));
            byte[] value =
                    random.nextInt(8) == 0 ? null : bytes(random, random.nextInt(12) == 0 ? 9_000 : size(random));
            int attributes = random.nextInt(20) == 0 ? random.nextInt(256) - 128 : 0;
            records.add(new Rec(attributes, ts, offset, key, value, keys, values));
        }
        return records;
    }

    private static int size(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> random.nextInt(4);
            case 1 -> random.nextInt(64);
            case 2 -> random.nextInt(300);
            default -> 60 + random.nextInt(10);
        };
    }

    private static byte[] bytes(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] encode(List<Rec> records) {
        try {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(all);
            for (Rec rec : records) {
                ByteArrayOutputStream bodyBytes = new ByteArrayOutputStream();
                DataOutputStream body = new DataOutputStream(bodyBytes);
                body.writeByte(rec.attributes());
                ByteUtils.writeVarlong(rec.timestampDelta(), body);
                ByteUtils.writeVarint(rec.offsetDelta(), body);
                writeBytes(rec.key(), body);
                writeBytes(rec.value(), body);
                ByteUtils.writeVarint(rec.headerKeys().length, body);
                for (int h = 0; h < rec.headerKeys().length; h++) {
                    writeBytes(rec.headerKeys()[h], body);
                    writeBytes(rec.headerValues()[h], body);
                }
                ByteUtils.writeVarint(bodyBytes.size(), out);
                bodyBytes.writeTo(out);
            }
            return all.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void writeBytes(byte[] bytes, DataOutputStream out) throws IOException {
        if (bytes == null) {
            ByteUtils.writeVarint(-1, out);
            return;
        }
        ByteUtils.writeVarint(bytes.length, out);
        out.write(bytes);
    }

    private static int countRecords(byte[] records) {
        int count = 0;
        int p = 0;
        while (p < records.length) {
            ByteBuffer view = ByteBuffer.wrap(records, p, records.length - p);
            int length = ByteUtils.readVarint(view);
            p = view.position() + length;
            count++;
        }
        return count;
    }

    /** 0: none; 1: one byte set to a random value; 2: one byte +-1; 3: truncated. */
    private static byte[] damage(byte[] records, int damage, Random random) {
        if (records.length == 0 || damage == 0) {
            return records;
        }
        int at = random.nextInt(records.length);
        switch (damage) {
            case 1 -> records[at] = (byte) random.nextInt();
            case 2 -> records[at] += random.nextBoolean() ? 1 : -1;
            default -> {
                return Arrays.copyOf(records, at);
            }
        }
        return records;
    }
}
