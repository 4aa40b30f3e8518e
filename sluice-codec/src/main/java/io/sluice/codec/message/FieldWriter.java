package io.sluice.codec.message;

import io.sluice.codec.endpoint.Endpoint;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.util.UUID;

/**
 * The field half of {@link MessageWriter}: encodes one primitive, array, string or endpoint at a time into the current
 * buffer, and resumes at the exact byte where a full buffer stopped it (inside a varint, a double, a string). The
 * buffer and its position live in fields refreshed only by {@link #setBuffer}, so a primitive write is a bounds check
 * and absolute puts, with no allocation. {@link MessageWriter} adds messages, lists, maps and nesting; it is the only
 * subclass, and the fields and the message structure live in one object so that a field write costs no indirection.
 *
 * <p>Not thread-safe; as {@link MessageWriter}, one per network thread (or connection).
 */
public abstract sealed class FieldWriter permits MessageWriter {
    ByteBuffer buf;
    /** Raw address of {@link #buf}: its array (null when direct) and the address of index 0; see {@code BufferAccess}. */
    byte[] array;

    long address;
    int pos;
    int limit;
    /**
     * {@link #limit} while no primitive is pending, else -1: every fast path checks only {@code fastLimit - pos >= n},
     * which fails whenever bytes are pending.
     */
    private int fastLimit;

    /** Encoded bytes of the primitive that did not fit, and how much of them is written. */
    private final byte[] pending = new byte[WireFormat.MAX_PRIMITIVE_BYTES];

    private int pendingPos;
    /** Bytes staged in {@link #pending}; 0 when nothing is pending; {@link #VARINT_PENDING} for a varint. */
    private int pendingLen;

    private static final int VARINT_PENDING = -1;
    /** Unwritten remainder of a varint that reached the end of a buffer. */
    private long varintRest;

    /** Innermost array in progress: 0 length pending, 1 elements; index of the next element or byte. */
    private int arrayPhase;

    private int arrayPos;
    /** Innermost compound field (endpoint) in progress. */
    private int endpointPhase;
    /** UTF-8 of the innermost string in progress. */
    private byte[] text = new byte[64];

    private int textLen;

    FieldWriter() {}

    /**
     * Sets the buffer to write into from its position up to its limit; sets its byte order to big-endian (once per
     * buffer object: a buffer passed again is only re-read for position and limit). The writer owns the bytes from the
     * position to the limit: a varint is stored as one 8-byte word when 8 bytes are free, so up to 7 bytes after the
     * position the writer leaves may hold scratch values (never beyond the limit).
     */
    @SuppressWarnings("ReferenceEquality") // the same buffer object resumes; an equal one is a new buffer
    public void setBuffer(ByteBuffer buffer) {
        if (buffer == buf) {
            pos = buffer.position();
            limit = buffer.limit();
            fastLimit = pendingLen == 0 ? limit : -1;
            return;
        }
        if (buffer.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        buffer.order(ByteOrder.BIG_ENDIAN);
        this.buf = buffer;
        this.array = BufferAccess.array(buffer);
        this.address = BufferAccess.address(buffer);
        this.pos = buffer.position();
        this.limit = buffer.limit();
        this.fastLimit = pendingLen == 0 ? limit : -1;
    }

    /** Points the primitive writes at {@code b} (raw access {@code arr}/{@code addr}) from {@code p} to {@code lim}. */
    final void target(ByteBuffer b, byte[] arr, long addr, int p, int lim) {
        buf = b;
        array = arr;
        address = addr;
        pos = p;
        limit = lim;
        fastLimit = pendingLen == 0 ? lim : -1;
    }

    /** Bytes still free in the current buffer. */
    public int remaining() {
        return limit - pos;
    }

    /** Forgets any field in progress: pending primitive bytes, an array, string or endpoint cut by a buffer end. */
    final void resetField() {
        setPending(0);
        pendingPos = 0;
        arrayPhase = 0;
        arrayPos = 0;
        endpointPhase = 0;
    }

    // ---- primitives ------------------------------------------------------------------------------------------
    // Each write is one compare against fastLimit and the stores; everything else (bytes pending from the previous
    // buffer, a primitive that does not fit, a varint that reaches the limit) goes to the one out-of-line writeSlow.
    // The fast paths stay small in bytecode so that C2 inlines every field of a large message's writeTo within its
    // inlining budget (8,000 bytecodes per compiled method); writeSlow stays out of line because it is larger than
    // C2's limit for inlining even a hot callee (FreqInlineSize, 325 bytecodes).

    public boolean writeBoolean(boolean v) {
        return writeByte(v ? (byte) 1 : (byte) 0);
    }

    public boolean writeByte(byte v) {
        int p = pos;
        if (fastLimit - p >= 1) {
            BufferAccess.putByte(buf, array, address, p, v);
            pos = p + 1;
            return true;
        }
        return writeSlow(v, 1);
    }

    public boolean writeShort(short v) {
        int p = pos;
        if (fastLimit - p >= WireFormat.SHORT_BYTES) {
            BufferAccess.putShort(buf, array, address, p, v);
            pos = p + WireFormat.SHORT_BYTES;
            return true;
        }
        return writeSlow(v, WireFormat.SHORT_BYTES);
    }

    /** Zigzag varint. */
    public boolean writeInt(int v) {
        return writeVarint(((v << 1) ^ (v >> 31)) & 0xFFFFFFFFL);
    }

    /** Zigzag varint. */
    public boolean writeLong(long v) {
        return writeVarint(WireFormat.zigzag(v));
    }

    public boolean writeFloat(float v) {
        int p = pos;
        int bits = Float.floatToRawIntBits(v);
        if (fastLimit - p >= WireFormat.FLOAT_BYTES) {
            BufferAccess.putInt(buf, array, address, p, bits);
            pos = p + WireFormat.FLOAT_BYTES;
            return true;
        }
        return writeSlow(bits, WireFormat.FLOAT_BYTES);
    }

    public boolean writeDouble(double v) {
        int p = pos;
        long bits = Double.doubleToRawLongBits(v);
        if (fastLimit - p >= WireFormat.DOUBLE_BYTES) {
            BufferAccess.putLong(buf, array, address, p, bits);
            pos = p + WireFormat.DOUBLE_BYTES;
            return true;
        }
        return writeSlow(bits, WireFormat.DOUBLE_BYTES);
    }

    /** 16 bytes; {@code null} is not allowed (use a boolean presence field). */
    public boolean writeUuid(UUID v) {
        return writeUuid(v.getMostSignificantBits(), v.getLeastSignificantBits());
    }

    public boolean writeUuid(long msb, long lsb) {
        int p = pos;
        if (fastLimit - p >= WireFormat.UUID_BYTES) {
            BufferAccess.putLong(buf, array, address, p, msb);
            BufferAccess.putLong(buf, array, address, p + Long.BYTES, lsb);
            pos = p + WireFormat.UUID_BYTES;
            return true;
        }
        if (pendingLen == 0) {
            WireFormat.encodeLong(msb, pending, 0);
        }
        return writeSlow(lsb, WireFormat.UUID_BYTES);
    }

    /**
     * Unsigned varint. With 8 bytes free, a value of up to 56 bits (8 varint bytes) is one 8-byte store of its encoding
     * packed into a long; longer values and the end of the buffer take the slow path.
     */
    boolean writeVarint(long v) {
        int p = pos;
        if (fastLimit - p >= Long.BYTES) {
            int len = WireFormat.varintLength(v);
            if (len <= Long.BYTES) {
                BufferAccess.putLongLittleEndian(buf, array, address, p, WireFormat.varintWord(v, len));
                pos = p + len;
                return true;
            }
        }
        return writeSlow(v, VARINT);
    }

    /** {@link #writeSlow} width of a varint. */
    private static final int VARINT = 0;
    /** What 8 varint bytes carry, and the continuation bit of the 8th byte of a varint word. */
    private static final int LOW_56_BITS_COUNT = 7 * Long.BYTES;

    private static final long LOW_56_BITS = (1L << LOW_56_BITS_COUNT) - 1;
    private static final long LAST_CONTINUATION_BIT = 1L << (Long.SIZE - 1);

    /**
     * Every primitive write that the fast path did not finish, in one method. Bytes still pending from the previous
     * buffer are drained first (that is the whole call when the write is the resumed one). Otherwise a varint
     * ({@code width == VARINT}, {@code bits} holding the part not yet written) continues byte by byte and, at the
     * limit, waits in {@link #varintRest}; a fixed-width value ({@code width} bytes: the low bytes of {@code bits}
     * big-endian; for a UUID the high long is already staged) is staged in {@link #pending} and written as far as it
     * fits.
     */
    private boolean writeSlow(long bits, int width) {
        int p = pos;
        int lim = limit;
        if (pendingLen > 0) {
            int n = Math.min(lim - p, pendingLen - pendingPos);
            BufferAccess.putBytes(buf, array, address, p, pending, pendingPos, n);
            pos = p + n;
            pendingPos += n;
            if (pendingPos < pendingLen) {
                return false;
            }
            pendingPos = 0;
            setPending(0);
            return true;
        }
        if (width == VARINT) {
            long v = pendingLen == VARINT_PENDING ? varintRest : bits;
            if (pendingLen == 0 && lim - p >= WireFormat.MAX_VARINT64_BYTES) {
                // 9 or 10 bytes: the first 8 as one word, all with continuation bits, then the top 8 bits
                long low = v & LOW_56_BITS;
                BufferAccess.putLongLittleEndian(
                        buf, array, address, p, WireFormat.varintWord(low, Long.BYTES) | LAST_CONTINUATION_BIT);
                p += Long.BYTES;
                v >>>= LOW_56_BITS_COUNT;
            }
            while (p < lim) {
                long rest = v >>> 7;
                BufferAccess.putByte(buf, array, address, p++, (byte) (rest == 0 ? v : v | 0x80));
                if (rest == 0) {
                    pos = p;
                    setPending(0);
                    return true;
                }
                v = rest;
            }
            pos = p;
            varintRest = v;
            setPending(VARINT_PENDING);
            return false;
        }
        int from = width == WireFormat.UUID_BYTES ? Long.BYTES : 0;
        long b = bits;
        for (int i = width - 1; i >= from; i--) {
            pending[i] = (byte) b;
            b >>>= Byte.SIZE;
        }
        int n = Math.min(lim - p, width);
        BufferAccess.putBytes(buf, array, address, p, pending, 0, n);
        pos = p + n;
        if (n == width) {
            return true;
        }
        pendingPos = n;
        setPending(width);
        return false;
    }

    private void setPending(int len) {
        pendingLen = len;
        fastLimit = len == 0 ? limit : -1;
    }

    // ---- arrays and strings ----------------------------------------------------------------------------------

    public boolean writeByteArray(byte[] v) {
        return v == null ? writeVarint(0) : writeByteArray(v, 0, v.length);
    }

    public boolean writeByteArray(byte[] v, int off, int len) {
        if (arrayPhase == 0) {
            if (!writeVarint(len + 1L)) {
                return false;
            }
            arrayPhase = 1;
            arrayPos = 0;
        }
        int n = Math.min(limit - pos, len - arrayPos);
        BufferAccess.putBytes(buf, array, address, pos, v, off + arrayPos, n);
        pos += n;
        arrayPos += n;
        if (arrayPos < len) {
            return false;
        }
        arrayPhase = 0;
        arrayPos = 0;
        return true;
    }

    public boolean writeIntArray(int[] v) {
        if (arrayPhase == 0) {
            if (!writeVarint(v == null ? 0 : v.length + 1L)) {
                return false;
            }
            if (v == null) {
                return true;
            }
            arrayPhase = 1;
            arrayPos = 0;
        }
        for (int n = v.length; arrayPos < n; arrayPos++) {
            if (!writeInt(v[arrayPos])) {
                return false;
            }
        }
        arrayPhase = 0;
        arrayPos = 0;
        return true;
    }

    public boolean writeLongArray(long[] v) {
        if (arrayPhase == 0) {
            if (!writeVarint(v == null ? 0 : v.length + 1L)) {
                return false;
            }
            if (v == null) {
                return true;
            }
            arrayPhase = 1;
            arrayPos = 0;
        }
        for (int n = v.length; arrayPos < n; arrayPos++) {
            if (!writeLong(v[arrayPos])) {
                return false;
            }
        }
        arrayPhase = 0;
        arrayPos = 0;
        return true;
    }

    /** UTF-8; encoded once into a reused scratch when the field starts. */
    public boolean writeString(String v) {
        if (v == null) {
            return writeVarint(0);
        }
        if (arrayPhase == 0 && pendingLen == 0) {
            textLen = Utf8.encode(v, this);
        }
        return writeByteArray(text, 0, textLen);
    }

    byte[] textScratch(int minLength) {
        if (text.length < minLength) {
            text = new byte[Math.max(minLength, text.length * 2)];
        }
        return text;
    }

    /** Host bytes then port; {@code null} allowed. */
    public boolean writeEndpoint(Endpoint v) {
        if (v == null) {
            return writeVarint(0);
        }
        if (endpointPhase == 0) {
            if (!writeByteArray(v.hostBytesView(), 0, v.hostLength())) {
                return false;
            }
            endpointPhase = 1;
        }
        if (!writeVarint(v.port())) {
            return false;
        }
        endpointPhase = 0;
        return true;
    }
}
