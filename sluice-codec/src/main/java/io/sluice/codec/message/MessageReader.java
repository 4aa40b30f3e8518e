package io.sluice.codec.message;

import io.sluice.codec.CodecConfig;
import io.sluice.codec.compress.Compression;
import io.sluice.codec.compress.GrowableBytes;
import io.sluice.codec.compress.StreamDecompressor;
import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.error.LimitExceededException;
import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.error.TruncatedInputException;
import io.sluice.codec.error.UnknownMessageTypeException;
import io.sluice.codec.error.UnsupportedVersionException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Reads messages written by {@link MessageWriter} from any split of their bytes: {@link #read()} consumes every byte
 * it is given and returns {@code null} until the message is complete. Field reads follow one pattern: call
 * {@code readXxx()}, then return {@code false} from {@link Message#readFrom} if {@link #isLastRead()} is false.
 *
 * <p>Every declared length is checked against {@link CodecConfig} before use, and arrays are allocated no larger than
 * the bytes actually present, growing as more arrive; compressed fields are inflated in bounded chunks against their
 * declared size. Bad input raises a {@link MalformedInputException} subtype naming the field path and the values
 * seen. After an exception, call {@link #reset()} before reading again. {@link #close()} ends native decompressors.
 *
 * <p>Not thread-safe; one per network thread (or connection), reused across messages.
 */
public final class MessageReader implements AutoCloseable {
    private final MessageRegistry registry;
    private final CodecConfig config;
    private ByteBuffer buf;
    /** Raw address of {@link #buf}; see {@code BufferAccess}. */
    private byte[] array;

    private long address;
    private int pos;
    private int limit;
    private boolean lastRead;

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

    private ReaderFrame[] frames = new ReaderFrame[4];
    private int depth;
    private ReaderFrame cur;
    private boolean rootInProgress;

    private int compressPhase;
    private Compression compression;
    private long declaredUncompressed;
    private final GrowableBytes compressedIn;
    private final StreamDecompressor[] decompressors = new StreamDecompressor[Compression.values().length];
    private ByteBuffer inflated;
    private MessageReader nested;

    public MessageReader(MessageRegistry registry) {
        this(registry, CodecConfig.DEFAULT);
    }

    public MessageReader(MessageRegistry registry, CodecConfig config) {
        this.registry = registry;
        this.config = config;
        this.compressedIn =
                new GrowableBytes("compressed field", config.scratchInitialBytes(), config.maxCompressedFieldBytes());
        for (int i = 0; i < frames.length; i++) {
            frames[i] = new ReaderFrame();
        }
        cur = frames[0];
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

    /**
     * Reads (or continues reading) one top-level message.
     *
     * @return the message once complete, leaving the buffer positioned after it; {@code null} when every byte was
     *     consumed and more are needed
     */
    public Message read() {
        if (buf == null) {
            throw new IllegalStateException("setBuffer must be called before read");
        }
        if (!rootInProgress) {
            frames[0].reset();
            rootInProgress = true;
        }
        depth = 0;
        cur = frames[0];
        try {
            if (!readBody(true)) {
                return null;
            }
            rootInProgress = false;
            Message m = frames[0].message;
            frames[0].message = null;
            return m;
        } finally {
            buf.position(pos);
        }
    }

    /** Abandons any message in progress. */
    public void reset() {
        rootInProgress = false;
        depth = 0;
        cur = frames[0];
        for (ReaderFrame f : frames) {
            f.reset();
        }
        varActive = false;
        pendingLen = 0;
        arrayPhase = 0;
        arrayValue = null;
        endpointPhase = 0;
        endpointHost = null;
        compressPhase = 0;
        lastRead = false;
    }

    /** Whether the last {@code readXxx} call completed its field. */
    public boolean isLastRead() {
        return lastRead;
    }

    public int state() {
        return cur.state;
    }

    public void incrementState() {
        cur.state++;
    }

    /** Schema version of the message being read. */
    public int version() {
        return cur.version;
    }

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
    private long readSizePrefix(String what, long cap) {
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

    // ---- containers and nested messages ----------------------------------------------------------------------

    /** A list of {@code type} elements; {@code null} for a null list or when {@link #isLastRead()} is false. */
    @SuppressWarnings("unchecked")
    public <T> List<T> readList(ElementType type) {
        ReaderFrame f = cur;
        if (f.containerPhase == 0) {
            long size = readSizePrefix("list size", config.maxCollectionSize());
            if (size < 0) {
                return null;
            }
            f.containerSize = (int) size;
            f.list = new ArrayList<>(Math.min(f.containerSize, limit - pos));
            f.containerPhase = 1;
        }
        ArrayList<Object> list = f.list;
        while (list.size() < f.containerSize) {
            Object e = readElement(type);
            if (!lastRead) {
                return null;
            }
            list.add(e);
        }
        f.containerPhase = 0;
        f.list = null;
        lastRead = true;
        return (List<T>) list;
    }

    /** A map in wire order (a {@link java.util.LinkedHashMap}); {@code null} as for lists. */
    @SuppressWarnings("unchecked")
    public <K, V> Map<K, V> readMap(ElementType keyType, ElementType valueType) {
        ReaderFrame f = cur;
        if (f.containerPhase == 0) {
            long size = readSizePrefix("map size", config.maxCollectionSize());
            if (size < 0) {
                return null;
            }
            f.containerSize = (int) size;
            f.containerPhase = 1;
            f.map = new LinkedHashMap<>(Math.min(f.containerSize, limit - pos) * 4 / 3 + 1);
            f.entryPhase = 0;
        }
        Map<Object, Object> map = f.map;
        while (map.size() < f.containerSize) {
            if (f.entryPhase == 0) {
                Object k = readElement(keyType);
                if (!lastRead) {
                    return null;
                }
                f.key = k;
                f.entryPhase = 1;
            }
            Object v = readElement(valueType);
            if (!lastRead) {
                return null;
            }
            if (map.containsKey(f.key)) {
                throw new MalformedInputException(where() + ": duplicate map key " + f.key);
            }
            map.put(f.key, v);
            f.key = null;
            f.entryPhase = 0;
        }
        f.containerPhase = 0;
        f.map = null;
        lastRead = true;
        return (Map<K, V>) map;
    }

    private Object readElement(ElementType type) {
        return switch (type) {
            case BOOLEAN -> {
                boolean v = readBoolean();
                yield lastRead ? v : null;
            }
            case BYTE -> {
                byte v = readByte();
                yield lastRead ? v : null;
            }
            case SHORT -> {
                short v = readShort();
                yield lastRead ? v : null;
            }
            case INT -> {
                int v = readInt();
                yield lastRead ? v : null;
            }
            case LONG -> {
                long v = readLong();
                yield lastRead ? v : null;
            }
            case DOUBLE -> {
                double v = readDouble();
                yield lastRead ? v : null;
            }
            case STRING -> readString();
            case UUID -> readUuid();
            case BYTE_ARRAY -> readByteArray();
            case ENDPOINT -> readEndpoint();
            case MESSAGE -> readMessage();
        };
    }

    /** A nested message of any registered type; {@code null} for a null message or when not complete. */
    public Message readMessage() {
        ReaderFrame parent = cur;
        int childDepth = depth + 1;
        if (childDepth >= config.maxDepth()) {
            throw new LimitExceededException(where() + " message nesting depth", childDepth + 1L, config.maxDepth());
        }
        if (childDepth == frames.length) {
            growFrames();
        }
        ReaderFrame child = frames[childDepth];
        if (!parent.childInProgress) {
            child.reset();
            parent.childInProgress = true;
        }
        depth = childDepth;
        cur = child;
        boolean done;
        try {
            done = readBody(false);
        } finally {
            depth = childDepth - 1;
            cur = parent;
        }
        if (!done) {
            lastRead = false;
            return null;
        }
        parent.childInProgress = false;
        Message m = child.message;
        child.message = null;
        lastRead = true;
        return m;
    }

    /** A nested message that must be of {@code type}. */
    public <T extends Message> T readMessage(Class<T> type) {
        Message m = readMessage();
        if (m != null && !type.isInstance(m)) {
            throw new MalformedInputException(
                    where() + ": expected " + type.getSimpleName() + " but got " + registry.name(m.typeId()));
        }
        return type.cast(m);
    }

    private void growFrames() {
        ReaderFrame[] bigger = Arrays.copyOf(frames, frames.length * 2);
        for (int i = frames.length; i < bigger.length; i++) {
            bigger[i] = new ReaderFrame();
        }
        frames = bigger;
    }

    /** Header then fields of the message in {@link #cur}; a null marker completes with a null message. */
    private boolean readBody(boolean topLevel) {
        ReaderFrame f = cur;
        if (f.headerPhase == 0) {
            long t = readVarint();
            if (!lastRead) {
                return false;
            }
            if (t == 0) {
                if (topLevel) {
                    throw new MalformedInputException("top-level message: null marker where a type id is required");
                }
                f.message = null;
                return true;
            }
            long typeId = t - 1;
            if (typeId > MessageRegistry.MAX_TYPE_ID || !registry.isRegistered((int) typeId)) {
                throw new UnknownMessageTypeException(where(), (int) Math.min(typeId, Integer.MAX_VALUE));
            }
            f.typeId = (int) typeId;
            f.headerPhase = 1;
        }
        if (f.headerPhase == 1) {
            long v = readVarint();
            if (!lastRead) {
                return false;
            }
            int max = registry.maxVersion(f.typeId);
            if (v > max) {
                throw new UnsupportedVersionException(
                        registry.name(f.typeId), (int) Math.min(v, Integer.MAX_VALUE), max);
            }
            f.version = (int) v;
            f.message = registry.create(f.typeId);
            f.headerPhase = 2;
        }
        return f.message.readFrom(this);
    }

    // ---- compressed fields -----------------------------------------------------------------------------------

    /**
     * A compressed nested message: the compressed bytes are collected (bounded by the cap and by the bytes present),
     * then inflated in chunks of {@link CodecConfig#compressChunkBytes()} into a reused nested reader, checking the
     * declared uncompressed size as bytes appear.
     */
    public Message readCompressed() {
        if (compressPhase == 0) {
            long id = readVarint();
            if (!lastRead) {
                return null;
            }
            if (id == 0) {
                return null;
            }
            compression = Compression.byId(id);
            if (compression == null) {
                throw new MalformedInputException(where() + ": unknown compression id " + id);
            }
            compressPhase = 1;
        }
        if (compressPhase == 1) {
            long len = readVarint();
            if (!lastRead) {
                return null;
            }
            if (len > config.maxUncompressedFieldBytes()) {
                throw new LimitExceededException(
                        where() + " compressed field uncompressed size", len, config.maxUncompressedFieldBytes());
            }
            declaredUncompressed = len;
            compressPhase = 2;
            compressedIn.clear();
        }
        if (compressPhase == 2) {
            if (arrayPhase == 0) {
                long len = readSizePrefix("compressed field length", config.maxCompressedFieldBytes());
                if (len < 0) {
                    if (lastRead) {
                        throw new MalformedInputException(where() + ": compressed bytes are null");
                    }
                    return null;
                }
                arrayLen = (int) len;
                arrayPos = 0;
                arrayPhase = 1;
            }
            int n = Math.min(arrayLen - arrayPos, limit - pos);
            byte[] a = compressedIn.ensureRoom(n);
            BufferAccess.getBytes(buf, array, address, pos, a, compressedIn.size(), n);
            compressedIn.advance(n);
            pos += n;
            arrayPos += n;
            if (arrayPos < arrayLen) {
                lastRead = false;
                return null;
            }
            arrayPhase = 0;
        }
        compressPhase = 0;
        Message m = inflate();
        compressedIn.trim(config.scratchRetainBytes());
        lastRead = true;
        return m;
    }

    public <T extends Message> T readCompressed(Class<T> type) {
        Message m = readCompressed();
        if (m != null && !type.isInstance(m)) {
            throw new MalformedInputException(where() + ": expected compressed " + type.getSimpleName() + " but got "
                    + registry.name(m.typeId()));
        }
        return type.cast(m);
    }

    private Message inflate() {
        StreamDecompressor d = decompressors[compression.ordinal()];
        if (d == null) {
            d = decompressors[compression.ordinal()] =
                    StreamDecompressor.create(compression, config.compressChunkBytes());
        }
        if (inflated == null) {
            inflated = ByteBuffer.allocate(config.compressChunkBytes());
        }
        MessageReader r = nested;
        if (r == null) {
            r = nested = new MessageReader(registry, config);
        }
        r.reset();
        d.reset();
        d.setInput(compressedIn.array(), 0, compressedIn.size());
        long total = 0;
        Message m = null;
        while (m == null) {
            inflated.clear();
            int n = d.decompress(inflated);
            total += n;
            if (total > declaredUncompressed) {
                throw new MalformedInputException(
                        where() + ": compressed field inflates past its declared " + declaredUncompressed + " bytes");
            }
            if (n == 0) {
                throw new TruncatedInputException(where() + ": compressed field ends after " + total
                        + " bytes, before its message is complete (declared " + declaredUncompressed + ")");
            }
            inflated.flip();
            r.setBuffer(inflated);
            m = r.read();
            if (m != null && inflated.hasRemaining()) {
                throw new MalformedInputException(
                        where() + ": " + inflated.remaining() + " bytes follow the compressed message");
            }
        }
        inflated.clear();
        if (d.decompress(inflated) > 0 || !d.finished()) {
            throw new MalformedInputException(
                    where() + ": compressed frame continues after its message, or is not" + " terminated");
        }
        if (total != declaredUncompressed || d.remainingInput() != 0) {
            throw new MalformedInputException(where() + ": compressed field inflated to " + total + " bytes, declared "
                    + declaredUncompressed + ", with " + d.remainingInput() + " trailing compressed bytes");
        }
        return m;
    }

    /** Path of the field being read, e.g. {@code PartitionMap.partitions[2]/PartitionAssignment.isr}. */
    String where() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i <= depth; i++) {
            ReaderFrame f = frames[i];
            if (i > 0) {
                sb.append('/');
            }
            if (f.headerPhase < 2 || f.message == null) {
                sb.append("message header");
            } else {
                sb.append(registry.name(f.typeId)).append('.').append(f.message.fieldName(f.state));
                if (f.containerPhase == 1) {
                    sb.append('[')
                            .append(f.list != null ? f.list.size() : f.map != null ? f.map.size() : 0)
                            .append(']');
                }
            }
        }
        return sb.toString();
    }

    @Override
    public void close() {
        for (StreamDecompressor d : decompressors) {
            if (d != null) {
                d.close();
            }
        }
        if (nested != null) {
            nested.close();
        }
    }
}
