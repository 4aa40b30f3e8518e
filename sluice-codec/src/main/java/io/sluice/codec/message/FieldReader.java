package io.sluice.codec.message;

import io.sluice.codec.CodecConfig;
import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.error.LimitExceededException;
import io.sluice.codec.error.MalformedInputException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

/**
 * The field half of {@link MessageReader}: decodes one primitive, array, string or endpoint at a time from the
 * current buffer, from any split of its bytes (a field cut by the end of a buffer continues with the next), checking
 * every declared length against {@link CodecConfig} and allocating arrays no larger than the bytes present. {@link
 * MessageReader} adds messages, lists, maps and nesting, and names the field being read in errors ({@link #where()});
 * it is the only subclass, and the fields and the message structure live in one object so that a field read costs no
 * indirection.
 *
 * <p>Not thread-safe; as {@link MessageReader}, one per network thread (or connection).
 */
public abstract sealed class FieldReader permits MessageReader {
    final CodecConfig config;
    ByteBuffer buf;
    /** Raw address of {@link #buf}; see {@code BufferAccess}. */
    byte[] array;

    long address;
    int pos;
    int limit;
    boolean lastRead;

    private boolean varActive;
    private long varAccum;
    private int varShift;
    private final byte[] pending = new byte[WireFormat.MAX_PRIMITIVE_BYTES];
    private int pendingLen;

    private int arrayPhase;
    private int arrayLen;
    private int arrayPos;
    private Object arrayValue;
    private byte[] text = new byte[64];
    private int endpointPhase;
    private byte[] endpointHost;

    FieldReader(CodecConfig config) {
        this.config = config;
    }

    /**
     * Sets the bytes to read: from the buffer's position to its limit; sets its byte order to big-endian (once per
     * buffer object: a buffer passed again is only re-read for position and limit).
     */
    @SuppressWarnings("ReferenceEquality") // the same buffer object resumes; an equal one is a new buffer
    public void setBuffer(ByteBuffer buffer) {
        if (buffer == buf) {
            pos = buffer.position();
            limit = buffer.limit();
            return;
        }
        buffer.order(ByteOrder.BIG_ENDIAN);
        this.buf = buffer;
        this.array = BufferAccess.array(buffer);
        this.address = BufferAccess.address(buffer);
        this.pos = buffer.position();
        this.limit = buffer.limit();
    }

    /** Whether the last {@code readXxx} call completed its field. */
    public boolean isLastRead() {
        return lastRead;
    }

    /** Forgets any field in progress (a primitive, varint, array, string or endpoint cut by a buffer end). */
    final void resetField() {
        varActive = false;
        pendingLen = 0;
        arrayPhase = 0;
        arrayValue = null;
        endpointPhase = 0;
        endpointHost = null;
        lastRead = false;
    }

    /** Path of the field being read, for error messages. */
    abstract String where();

    // ---- primitives ------------------------------------------------------------------------------------------

    public boolean readBoolean() {
        byte b = readByte();
        if (lastRead && (b & ~1) != 0) {
            throw new MalformedInputException(where() + ": boolean byte " + b + " is neither 0 nor 1");
        }
        return b == 1;
    }

    public byte readByte() {
        if (pos < limit) {
            lastRead = true;
            return BufferAccess.getByte(buf, array, address, pos++);
        }
        lastRead = false;
        return 0;
    }

    public short readShort() {
        if (pendingLen == 0 && limit - pos >= WireFormat.SHORT_BYTES) {
            short v = BufferAccess.getShort(buf, array, address, pos);
            pos += WireFormat.SHORT_BYTES;
            lastRead = true;
            return v;
        }
        if (!fillPending(WireFormat.SHORT_BYTES)) {
            return 0;
        }
        return (short) (((pending[0] & 0xFF) << 8) | (pending[1] & 0xFF));
    }

    public int readInt() {
        long z = readVarint();
        if (!lastRead) {
            return 0;
        }
        if ((z >>> 32) != 0) {
            throw new MalformedInputException(
                    where() + ": varint " + Long.toUnsignedString(z) + " does not fit an int");
        }
        return (int) (z >>> 1) ^ -(int) (z & 1);
    }

    public long readLong() {
        long z = readVarint();
        return lastRead ? WireFormat.unzigzag(z) : 0;
    }

    public float readFloat() {
        if (pendingLen == 0 && limit - pos >= WireFormat.FLOAT_BYTES) {
            float v = Float.intBitsToFloat(BufferAccess.getInt(buf, array, address, pos));
            pos += WireFormat.FLOAT_BYTES;
            lastRead = true;
            return v;
        }
        if (!fillPending(WireFormat.FLOAT_BYTES)) {
            return 0;
        }
        int bits = 0;
        for (int i = 0; i < WireFormat.FLOAT_BYTES; i++) {
            bits = (bits << 8) | (pending[i] & 0xFF);
        }
        return Float.intBitsToFloat(bits);
    }

    public double readDouble() {
        if (pendingLen == 0 && limit - pos >= WireFormat.DOUBLE_BYTES) {
            double v = Double.longBitsToDouble(BufferAccess.getLong(buf, array, address, pos));
            pos += WireFormat.DOUBLE_BYTES;
            lastRead = true;
            return v;
        }
        if (!fillPending(WireFormat.DOUBLE_BYTES)) {
            return 0;
        }
        return Double.longBitsToDouble(WireFormat.decodeLong(pending, 0));
    }

    public UUID readUuid() {
        if (pendingLen == 0 && limit - pos >= WireFormat.UUID_BYTES) {
            UUID v = new UUID(
                    BufferAccess.getLong(buf, array, address, pos), BufferAccess.getLong(buf, array, address, pos + 8));
            pos += WireFormat.UUID_BYTES;
            lastRead = true;
            return v;
        }
        if (!fillPending(WireFormat.UUID_BYTES)) {
            return null;
        }
        return new UUID(WireFormat.decodeLong(pending, 0), WireFormat.decodeLong(pending, 8));
    }

    /** Accumulates a fixed-size value across buffers; true (and pending reset) once {@code n} bytes are there. */
    private boolean fillPending(int n) {
        int take = Math.min(n - pendingLen, limit - pos);
        BufferAccess.getBytes(buf, array, address, pos, pending, pendingLen, take);
        pos += take;
        pendingLen += take;
        if (pendingLen < n) {
            lastRead = false;
            return false;
        }
        pendingLen = 0;
        lastRead = true;
        return true;
    }

    /** Unsigned varint, at most 10 bytes. */
    long readVarint() {
        if (!varActive && limit - pos >= WireFormat.MAX_VARINT64_BYTES) {
            ByteBuffer b = buf;
            byte[] o = array;
            long a = address;
            int p = pos;
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                byte x = BufferAccess.getByte(b, o, a, p++);
                v |= (long) (x & 0x7F) << shift;
                if (x >= 0) {
                    pos = p;
                    lastRead = true;
                    return v;
                }
            }
            throw new MalformedInputException(where() + ": varint longer than 10 bytes");
        }
        if (!varActive) {
            varActive = true;
            varAccum = 0;
            varShift = 0;
        }
        while (pos < limit) {
            byte x = BufferAccess.getByte(buf, array, address, pos++);
            varAccum |= (long) (x & 0x7F) << varShift;
            if (x >= 0) {
                varActive = false;
                lastRead = true;
                return varAccum;
            }
            varShift += 7;
            if (varShift >= 64) {
                varActive = false;
                throw new MalformedInputException(where() + ": varint longer than 10 bytes");
            }
        }
        lastRead = false;
        return 0;
    }

    /** A length or count prefix (value+1, 0 = null); returns -1 for null, -2 when more bytes are needed. */
    final long readSizePrefix(String what, long cap) {
        long raw = readVarint();
        if (!lastRead) {
            return -2;
        }
        if (raw == 0) {
            return -1;
        }
        long size = raw - 1;
        if (size > cap || size < 0) {
            throw new LimitExceededException(where() + " " + what, size < 0 ? Long.MAX_VALUE : size, cap);
        }
        return size;
    }

    // ---- arrays and strings ----------------------------------------------------------------------------------

    /** A byte array, {@code null} for a null array or when {@link #isLastRead()} is false. */
    public byte[] readByteArray() {
        return readBytes(config.maxArrayLength(), "byte array length", false);
    }

    private byte[] readBytes(int cap, String what, boolean intoText) {
        if (arrayPhase == 0) {
            long len = readSizePrefix(what, cap);
            if (len < 0) {
                return null;
            }
            arrayLen = (int) len;
            arrayPos = 0;
            if (intoText) {
                if (text.length < Math.min(arrayLen, limit - pos)) {
                    text = new byte[Math.min(arrayLen, Math.max(limit - pos, text.length * 2))];
                }
                arrayValue = text;
            } else {
                arrayValue = new byte[Math.min(arrayLen, limit - pos)];
            }
            arrayPhase = 1;
        }
        byte[] a = (byte[]) arrayValue;
        int n = Math.min(arrayLen - arrayPos, limit - pos);
        if (arrayPos + n > a.length) {
            a = Arrays.copyOf(a, Math.min(arrayLen, Math.max(arrayPos + n, a.length * 2)));
            arrayValue = a;
            if (intoText) {
                text = a;
            }
        }
        BufferAccess.getBytes(buf, array, address, pos, a, arrayPos, n);
        pos += n;
        arrayPos += n;
        if (arrayPos < arrayLen) {
            lastRead = false;
            return null;
        }
        arrayPhase = 0;
        arrayValue = null;
        lastRead = true;
        return a;
    }

    public int[] readIntArray() {
        if (arrayPhase == 0) {
            long len = readSizePrefix("int array length", config.maxArrayLength());
            if (len < 0) {
                return null;
            }
            arrayLen = (int) len;
            arrayPos = 0;
            arrayValue = new int[Math.min(arrayLen, limit - pos)];
            arrayPhase = 1;
        }
        int[] a = (int[]) arrayValue;
        while (arrayPos < arrayLen) {
            int v = readInt();
            if (!lastRead) {
                return null;
            }
            if (arrayPos == a.length) {
                a = Arrays.copyOf(a, Math.min(arrayLen, Math.max(a.length * 2, arrayPos + 1 + (limit - pos))));
                arrayValue = a;
            }
            a[arrayPos++] = v;
        }
        arrayPhase = 0;
        arrayValue = null;
        lastRead = true;
        return a;
    }

    public long[] readLongArray() {
        if (arrayPhase == 0) {
            long len = readSizePrefix("long array length", config.maxArrayLength());
            if (len < 0) {
                return null;
            }
            arrayLen = (int) len;
            arrayPos = 0;
            arrayValue = new long[Math.min(arrayLen, limit - pos)];
            arrayPhase = 1;
        }
        long[] a = (long[]) arrayValue;
        while (arrayPos < arrayLen) {
            long v = readLong();
            if (!lastRead) {
                return null;
            }
            if (arrayPos == a.length) {
                a = Arrays.copyOf(a, Math.min(arrayLen, Math.max(a.length * 2, arrayPos + 1 + (limit - pos))));
                arrayValue = a;
            }
            a[arrayPos++] = v;
        }
        arrayPhase = 0;
        arrayValue = null;
        lastRead = true;
        return a;
    }

    public String readString() {
        byte[] a = readBytes(config.maxStringBytes(), "string length", true);
        if (a == null) {
            return null;
        }
        return new String(a, 0, arrayLen, StandardCharsets.UTF_8);
    }

    public Endpoint readEndpoint() {
        if (endpointPhase == 0) {
            byte[] host = readBytes(Endpoint.MAX_HOST_BYTES, "endpoint host length", false);
            if (host == null) {
                return null;
            }
            if (host.length == 0) {
                throw new MalformedInputException(where() + ": endpoint host is empty");
            }
            endpointHost = host;
            endpointPhase = 1;
        }
        long port = readVarint();
        if (!lastRead) {
            return null;
        }
        if (port < 0 || port > Endpoint.MAX_PORT) {
            // a varint decodes to any long, negative ones included
            throw new MalformedInputException(where() + ": endpoint port " + port + " outside 0.." + Endpoint.MAX_PORT);
        }
        Endpoint e = Endpoint.adopt(endpointHost, (int) port);
        endpointHost = null;
        endpointPhase = 0;
        return e;
    }
}
