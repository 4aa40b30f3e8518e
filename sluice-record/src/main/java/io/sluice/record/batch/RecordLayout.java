package io.sluice.record.batch;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The structure of one record that {@link RecordCursor}'s field chain accepted, kept so that the
 * next records of the same structure are checked with a few independent word loads instead of
 * walking their fields one after the other (producers mostly send records of one layout).
 *
 * <p>The structural bytes of a record are: every byte of its length prefix, the continuation
 * bit of every timestampDelta and offsetDelta byte, and every byte of its key length, value
 * length, header count and header key and value lengths. They are covered by at most
 * {@link #MAX_WORDS} 8-byte words inside the record, each with the mask of its structural bits
 * and their values. A record whose words show the same structural bytes at the same offsets has
 * the same length, the same varint sizes and the same lengths at the same places, so the field
 * chain would read it field for field as it read the learned record and accept it too (by
 * induction over the fields); only attributes, timestampDelta and offsetDelta differ, and they
 * lie in the first word. Words are compared in the byte order of the buffer they were learned
 * from; a buffer of the other order is not matched.
 *
 * <p>Not thread-safe; one per {@link RecordCursor}.
 */
final class RecordLayout {

    /** Words per layout; records needing more (many headers) are walked field by field. */
    static final int MAX_WORDS = 32;
    /** timestampDelta and offsetDelta of at most this many bytes each are decoded from the first word. */
    private static final int MAX_DELTA_BYTES = 3;

    private static final int NONE = Integer.MAX_VALUE;
    private static final long ALL_BITS = 0xFF;
    private static final long CONTINUATION_BIT = 0x80;
    private static final int PAYLOAD_BITS = 0x7F;

    /** Bytes of a record of this layout, length prefix included; {@link Integer#MAX_VALUE} when none is known. */
    int total = NONE;

    boolean bigEndian;
    int bodyLength;
    int keyLength;
    int valueLength;
    int headerCount;
    /**
     * The first word (at the record's start) as little-endian bits, byte i at bits 8i..8i+7
     * whatever the buffer's order, so that the deltas are decoded with fixed shifts.
     */
    long firstMask;

    long firstExpected;
    /**
     * The other words, read in the buffer's byte order: offset from the record's start, mask and
     * expected bits of each; the first {@link #checkEnd} entries are used. Each word lies inside
     * the record (it ends at the record's end at the latest), so a record wholly inside the window
     * has all of them inside it too.
     */
    final int[] checkAt = new int[MAX_WORDS];

    final long[] checkMask = new long[MAX_WORDS];
    final long[] checkExpected = new long[MAX_WORDS];
    /** {@link #checkMask} and {@link #checkExpected} as little-endian bits, for {@link RawWords} loads. */
    final long[] checkMaskLittleEndian = new long[MAX_WORDS];

    final long[] checkExpectedLittleEndian = new long[MAX_WORDS];
    int checkEnd;
    private int attributesShift;
    private int timestampShift;
    private long timestampPayload;
    private int offsetShift;
    private long offsetPayload;

    /** Learning state: the words' offsets and little-endian masks, the next byte's offset, the record's size. */
    private final int[] wordAt = new int[MAX_WORDS];

    private final long[] wordMask = new long[MAX_WORDS];
    private int words;
    private int at;
    private int recordBytes;
    private boolean unusable;

    /** The first word of the record at {@code start} as little-endian bits (see {@link #firstMask}). */
    long first(ByteBuffer b, int start) {
        long word = b.getLong(start);
        return bigEndian ? Long.reverseBytes(word) : word;
    }

    byte attributes(long first) {
        return (byte) (first >>> attributesShift);
    }

    long timestampDelta(long first) {
        return zigzag(payload(first >>> timestampShift) & timestampPayload);
    }

    int offsetDelta(long first) {
        return (int) zigzag(payload(first >>> offsetShift) & offsetPayload);
    }

    /** The 7-bit groups of the (up to three) varint bytes at the bottom of {@code word}, in order. */
    private static long payload(long word) {
        return word & 0x7F | word >>> 1 & 0x3F80 | word >>> 2 & 0x1F_C000;
    }

    private static long zigzag(long raw) {
        return (raw >>> 1) ^ -(raw & 1);
    }

    /** Forgets the layout when it was learned in a buffer of another byte order than {@code order}. */
    void keepFor(ByteOrder order) {
        if ((order == ByteOrder.BIG_ENDIAN) != bigEndian) {
            total = NONE;
        }
    }

    /**
     * Learns the layout of the record of {@code recordBytes} bytes (length prefix included) at
     * {@code start}, which the field chain has just accepted; forgets any layout when this one
     * cannot be checked by words (shorter than a word, a delta longer than
     * {@value #MAX_DELTA_BYTES} bytes or outside the first word, more than {@value #MAX_WORDS} words).
     */
    void learn(ByteBuffer b, int start, int recordBytes) {
        total = NONE;
        if (recordBytes < Long.BYTES) {
            return;
        }
        this.recordBytes = recordBytes;
        bigEndian = b.order() == ByteOrder.BIG_ENDIAN;
        words = 0;
        at = 0;
        unusable = false;
        varint(b, start, ALL_BITS);
        int body = at;
        attributesShift = Byte.SIZE * at++;
        int timestampAt = at;
        varint(b, start, CONTINUATION_BIT);
        int offsetAt = at;
        varint(b, start, CONTINUATION_BIT);
        if (unusable || !deltaInFirstWord(timestampAt, offsetAt) || !deltaInFirstWord(offsetAt, at)) {
            return;
        }
        timestampShift = Byte.SIZE * timestampAt;
        timestampPayload = (1L << 7 * (offsetAt - timestampAt)) - 1;
        offsetShift = Byte.SIZE * offsetAt;
        offsetPayload = (1L << 7 * (at - offsetAt)) - 1;
        int key = varint(b, start, ALL_BITS);
        skip(key, true);
        int value = varint(b, start, ALL_BITS);
        skip(value, true);
        int headers = varint(b, start, ALL_BITS);
        for (int i = 0; i < headers && !unusable; i++) {
            skip(varint(b, start, ALL_BITS), false);
            skip(varint(b, start, ALL_BITS), true);
        }
        if (unusable || at != recordBytes || headers < 0) {
            return;
        }
        firstMask = wordMask[0];
        firstExpected = first(b, start) & firstMask;
        checkEnd = 0;
        for (int k = 1; k < words; k++) {
            if (wordAt[k] < 0 || wordAt[k] > recordBytes - Long.BYTES) {
                return; // cannot happen (require keeps words inside the record); unchecked loads rely on it
            }
            long mask = bigEndian ? Long.reverseBytes(wordMask[k]) : wordMask[k];
            long expected = b.getLong(start + wordAt[k]) & mask;
            checkAt[checkEnd] = wordAt[k];
            checkMask[checkEnd] = mask;
            checkExpected[checkEnd] = expected;
            checkMaskLittleEndian[checkEnd] = wordMask[k];
            checkExpectedLittleEndian[checkEnd++] = bigEndian ? Long.reverseBytes(expected) : expected;
        }
        bodyLength = recordBytes - body;
        keyLength = key;
        valueLength = value;
        headerCount = headers;
        total = recordBytes;
    }

    /** True when the delta varint {@code [from, to)} can be decoded from the first word. */
    private static boolean deltaInFirstWord(int from, int to) {
        return to - from <= MAX_DELTA_BYTES && to <= Long.BYTES;
    }

    /** Reads the varint at {@link #at} (zigzag-decoded), marking its bytes with {@code byteMask}. */
    private int varint(ByteBuffer b, int start, long byteMask) {
        int raw = 0;
        for (int shift = 0; shift < Integer.SIZE && at < recordBytes; shift += 7) {
            byte x = b.get(start + at);
            require(at++, byteMask);
            raw |= (x & PAYLOAD_BITS) << shift;
            if (x >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        unusable = true;
        return 0;
    }

    /** Skips a key, value or header part of {@code length} bytes (-1: null, where {@code nullable}). */
    private void skip(int length, boolean nullable) {
        if (length < (nullable ? -1 : 0) || length > recordBytes - at) {
            unusable = true;
            return;
        }
        at += Math.max(length, 0);
    }

    /**
     * Adds the bits {@code byteMask} of the byte at {@code offset} to the words (little-endian
     * masks), opening a word there, or ending at the record's end, when the last one does not reach it.
     */
    private void require(int offset, long byteMask) {
        if (words > 0 && offset < wordAt[words - 1] + Long.BYTES) {
            wordMask[words - 1] |= byteMask << Byte.SIZE * (offset - wordAt[words - 1]);
            return;
        }
        if (words == MAX_WORDS) {
            unusable = true;
            return;
        }
        int from = Math.min(offset, recordBytes - Long.BYTES);
        wordAt[words] = from;
        wordMask[words] = byteMask << Byte.SIZE * (offset - from);
        words++;
    }
}
