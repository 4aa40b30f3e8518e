package io.sluice.codec.message;

import io.sluice.codec.CodecConfig;
import io.sluice.codec.compress.Compression;
import io.sluice.codec.compress.GrowableBytes;
import io.sluice.codec.compress.StreamCompressor;
import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.error.LimitExceededException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Writes messages field by field into caller-supplied fixed-size buffers (heap or direct). When a buffer fills,
 * {@link #write(Message)} returns {@code false}; after {@link #setBuffer} with a fresh buffer the same call resumes at
 * the exact byte where it stopped, inside any primitive, array, string, list, map or nested message. The wire format
 * is described in {@code WireFormat}.
 *
 * <p>The current buffer and its position live in fields of this writer, refreshed only by {@link #setBuffer}, so a
 * primitive write is a bounds check and absolute puts, with no allocation. A call that starts with fewer than
 * {@link #SPILL_THRESHOLD} bytes free (a small socket buffer, or the tail of a large one) writes ahead into a reused
 * {@link #SPILL_BYTES}-byte spill instead and hands its bytes out over this and the following calls, so small buffers
 * cost a copy per buffer instead of a field-by-field resume per buffer; the bytes produced are the same either way. Compressed fields go through one reused
 * nested writer, one reused compressor per format and one reused heap scratch that is kept up to
 * {@link CodecConfig#scratchRetainBytes()} and trimmed above it. {@link #close()} ends the native compressors.
 *
 * <p>Not thread-safe; one per network thread (or connection), reused across messages.
 */
public final class MessageWriter implements AutoCloseable {
    private final CodecConfig config;
    private ByteBuffer buf;
    /** Raw address of {@link #buf}: its array (null when direct) and the address of index 0; see {@code BufferAccess}. */
    private byte[] array;

    private long address;
    private int pos;
    private int limit;
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

    /** Calls starting with fewer free bytes than this write ahead into the spill. */
    static final int SPILL_THRESHOLD = 128;
    /** Capacity of the spill; larger than {@link #SPILL_THRESHOLD}, so an unfinished spill always fills the buffer. */
    static final int SPILL_BYTES = 512;

    private final ByteBuffer spill = ByteBuffer.allocate(SPILL_BYTES);
    private final byte[] spillArray = BufferAccess.array(spill);
    private final long spillAddress = BufferAccess.address(spill);
    /** Bytes of the spill already handed out, and the end of what was written into it. */
    private int spillRead;

    private int spillEnd;
    /** The root message ended inside the spill: the call that hands out its last byte reports it finished. */
    private boolean spillHoldsEnd;

    private WriterFrame[] frames = new WriterFrame[4];
    private int depth;
    private WriterFrame cur;
    private boolean rootInProgress;

    /** Compressed field in progress: 0 not compressed yet, 1 id pending, 2 length pending, 3 bytes. */
    private int compressPhase;

    private Compression compressing;
    private long uncompressedLength;
    private final GrowableBytes compressed;
    private final StreamCompressor[] compressors = new StreamCompressor[Compression.values().length];
    private MessageWriter nested;

    public MessageWriter() {
        this(CodecConfig.DEFAULT);
    }

    public MessageWriter(CodecConfig config) {
        this.config = config;
        this.compressed =
                new GrowableBytes("compressed field", config.scratchInitialBytes(), config.maxCompressedFieldBytes());
        for (int i = 0; i < frames.length; i++) {
            frames[i] = new WriterFrame();
        }
        cur = frames[0];
    }

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

    /**
     * Writes (or continues writing) {@code message} as a top-level message.
     *
     * @return {@code true} when the message is complete; {@code false} when the buffer is full and the same message
     *     must be passed again after {@link #setBuffer}
     */
    public boolean write(Message message) {
        if (buf == null) {
            throw new IllegalStateException("setBuffer must be called before write");
        }
        try {
            if (spillRead < spillEnd && !drainSpill()) {
                return false;
            }
            if (spillHoldsEnd) {
                spillHoldsEnd = false;
                return true;
            }
            if (limit - pos >= SPILL_THRESHOLD) {
                return writeRoot(message);
            }
            return pos < limit && writeRootThroughSpill(message);
        } finally {
            buf.position(pos);
        }
    }

    private boolean writeRoot(Message message) {
        if (!rootInProgress) {
            frames[0].reset();
            rootInProgress = true;
        }
        depth = 0;
        cur = frames[0];
        boolean done = writeBody(message);
        if (done) {
            rootInProgress = false;
        }
        return done;
    }

    /**
     * Writes the root message ahead into the spill (as far as the spill holds), then hands out as much of it as the
     * caller's buffer takes. An unfinished write fills the whole spill, which is larger than the free space that sent
     * the call here, so an unfinished call always leaves the caller's buffer full.
     */
    private boolean writeRootThroughSpill(Message message) {
        ByteBuffer callerBuf = buf;
        byte[] callerArray = array;
        long callerAddress = address;
        int callerPos = pos;
        int callerLimit = limit;
        target(spill, spillArray, spillAddress, 0, SPILL_BYTES);
        boolean done;
        try {
            done = writeRoot(message);
        } finally {
            spillRead = 0;
            spillEnd = pos;
            target(callerBuf, callerArray, callerAddress, callerPos, callerLimit);
        }
        spillHoldsEnd = done;
        if (!drainSpill()) {
            return false;
        }
        spillHoldsEnd = false;
        return done;
    }

    /** Copies spilled bytes into the current buffer; true when none are left. */
    private boolean drainSpill() {
        int n = Math.min(spillEnd - spillRead, limit - pos);
        BufferAccess.putBytes(buf, array, address, pos, spill.array(), spillRead, n);
        pos += n;
        spillRead += n;
        return spillRead == spillEnd;
    }

    /** Points the primitive writes at {@code b} (raw access {@code arr}/{@code addr}) from {@code p} to {@code lim}. */
    private void target(ByteBuffer b, byte[] arr, long addr, int p, int lim) {
        buf = b;
        array = arr;
        address = addr;
        pos = p;
        limit = lim;
        fastLimit = pendingLen == 0 ? lim : -1;
    }

    /** Abandons any message in progress (after an exception, or to drop a half-written message). */
    public void reset() {
        rootInProgress = false;
        spillRead = 0;
        spillEnd = 0;
        spillHoldsEnd = false;
        depth = 0;
        cur = frames[0];
        cur.reset();
        setPending(0);
        pendingPos = 0;
        arrayPhase = 0;
        arrayPos = 0;
        endpointPhase = 0;
        compressPhase = 0;
    }

    /** Index of the next field of the message being written. */
    public int state() {
        return cur.state;
    }

    public void incrementState() {
        cur.state++;
    }

    /**
     * Records that field {@code field} of the message being written did not finish and returns {@code false}, for
     * {@code writeTo} implementations that resume by field index without counting every finished field:
     * {@code case 3: if (!w.writeInt(x)) return w.stopAt(3);}. Equivalent to {@link #incrementState} after each
     * finished field, with one store per buffer instead of one per field.
     */
    public boolean stopAt(int field) {
        cur.state = field;
        return false;
    }

    /** Bytes still free in the current buffer. */
    public int remaining() {
        return limit - pos;
    }

    /** Current capacity of the compressed-field scratch, for tests and metrics. */
    public int scratchCapacity() {
        return compressed.capacity();
    }

    /** Drops the compressed-field scratch back to its initial size. */
    public void trimScratch() {
        compressed.trim(0);
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

    // ---- containers and nested messages ----------------------------------------------------------------------

    /** A list of {@code type} elements; {@code null} allowed. Random access is used for the cursor. */
    public boolean writeList(List<?> list, ElementType type) {
        WriterFrame f = cur;
        if (f.containerPhase == 0) {
            if (!writeVarint(list == null ? 0 : list.size() + 1L)) {
                return false;
            }
            if (list == null) {
                return true;
            }
            f.containerPhase = 1;
            f.containerIndex = 0;
        }
        for (int n = list.size(); f.containerIndex < n; f.containerIndex++) {
            if (!writeElement(list.get(f.containerIndex), type)) {
                return false;
            }
        }
        f.containerPhase = 0;
        f.containerIndex = 0;
        return true;
    }

    /** A map as size then key/value pairs in iteration order; {@code null} allowed. */
    public boolean writeMap(Map<?, ?> map, ElementType keyType, ElementType valueType) {
        WriterFrame f = cur;
        if (f.containerPhase == 0) {
            if (!writeVarint(map == null ? 0 : map.size() + 1L)) {
                return false;
            }
            if (map == null) {
                return true;
            }
            f.containerPhase = 1;
            f.entries = map.entrySet().iterator();
            f.entry = null;
            f.entryPhase = 0;
        }
        Iterator<? extends Map.Entry<?, ?>> it = f.entries;
        while (f.entry != null || it.hasNext()) {
            if (f.entry == null) {
                f.entry = it.next();
                f.entryPhase = 0;
            }
            if (f.entryPhase == 0) {
                if (!writeElement(f.entry.getKey(), keyType)) {
                    return false;
                }
                f.entryPhase = 1;
            }
            if (!writeElement(f.entry.getValue(), valueType)) {
                return false;
            }
            f.entry = null;
        }
        f.containerPhase = 0;
        f.entries = null;
        return true;
    }

    private boolean writeElement(Object v, ElementType type) {
        return switch (type) {
            case BOOLEAN -> writeBoolean((Boolean) v);
            case BYTE -> writeByte((Byte) v);
            case SHORT -> writeShort((Short) v);
            case INT -> writeInt((Integer) v);
            case LONG -> writeLong((Long) v);
            case DOUBLE -> writeDouble((Double) v);
            case STRING -> writeString((String) v);
            case UUID -> writeUuid((UUID) v);
            case BYTE_ARRAY -> writeByteArray((byte[]) v);
            case ENDPOINT -> writeEndpoint((Endpoint) v);
            case MESSAGE -> writeMessage((Message) v);
        };
    }

    /** A nested message (type id, version, fields); {@code null} allowed. */
    public boolean writeMessage(Message v) {
        if (v == null) {
            return writeVarint(0);
        }
        WriterFrame parent = cur;
        int childDepth = depth + 1;
        if (childDepth >= config.maxDepth()) {
            throw new LimitExceededException("message nesting depth", childDepth + 1L, config.maxDepth());
        }
        if (childDepth == frames.length) {
            growFrames();
        }
        WriterFrame child = frames[childDepth];
        if (!parent.childInProgress) {
            child.reset();
            parent.childInProgress = true;
        }
        depth = childDepth;
        cur = child;
        boolean done = writeBody(v);
        depth = childDepth - 1;
        cur = parent;
        if (done) {
            parent.childInProgress = false;
        }
        return done;
    }

    private void growFrames() {
        WriterFrame[] bigger = java.util.Arrays.copyOf(frames, frames.length * 2);
        for (int i = frames.length; i < bigger.length; i++) {
            bigger[i] = new WriterFrame();
        }
        frames = bigger;
    }

    private boolean writeBody(Message m) {
        WriterFrame f = cur;
        if (f.headerPhase == 0) {
            if (!writeVarint(m.typeId() + 1L)) {
                return false;
            }
            f.headerPhase = 1;
        }
        if (f.headerPhase == 1) {
            if (!writeVarint(m.version())) {
                return false;
            }
            f.headerPhase = 2;
        }
        return m.writeTo(this);
    }

    // ---- compressed fields -----------------------------------------------------------------------------------

    /**
     * A nested message written compressed: the first call streams the whole message through the reused nested writer
     * and compressor into the reused heap scratch (no uncompressed copy), later calls copy the compressed bytes into
     * the buffers. {@code null} allowed.
     */
    public boolean writeCompressed(Message v, Compression compression) {
        if (compressPhase == 0) {
            if (v == null) {
                return writeVarint(0);
            }
            compressInto(v, compression);
            compressPhase = 1;
        }
        if (compressPhase == 1) {
            if (!writeVarint(compressing.id())) {
                return false;
            }
            compressPhase = 2;
        }
        if (compressPhase == 2) {
            if (!writeVarint(uncompressedLength)) {
                return false;
            }
            compressPhase = 3;
        }
        if (!writeByteArray(compressed.array(), 0, compressed.size())) {
            return false;
        }
        compressPhase = 0;
        compressed.trim(config.scratchRetainBytes());
        return true;
    }

    private void compressInto(Message v, Compression compression) {
        StreamCompressor compressor = compressor(compression);
        MessageWriter w = nested;
        if (w == null) {
            w = nested = new MessageWriter(config);
        }
        w.reset();
        compressed.clear();
        ByteBuffer chunk = compressor.input();
        long total = 0;
        boolean ok = false;
        try {
            w.setBuffer(chunk);
            while (!w.write(v)) {
                total += chunk.position();
                requireUncompressedWithinCap(total);
                compressor.drainInput(compressed);
                w.setBuffer(chunk);
            }
            total += chunk.position();
            requireUncompressedWithinCap(total);
            compressor.finish(compressed);
            ok = true;
        } finally {
            if (!ok) {
                compressor.reset();
                w.reset();
            }
        }
        compressing = compression;
        uncompressedLength = total;
    }

    private void requireUncompressedWithinCap(long total) {
        if (total > config.maxUncompressedFieldBytes()) {
            throw new LimitExceededException(
                    "compressed field uncompressed size", total, config.maxUncompressedFieldBytes());
        }
    }

    private StreamCompressor compressor(Compression c) {
        StreamCompressor sc = compressors[c.ordinal()];
        if (sc == null) {
            sc = compressors[c.ordinal()] = StreamCompressor.create(c, config.compressChunkBytes());
        }
        return sc;
    }

    /** Ends the native compressors of this writer and its nested writer. */
    @Override
    public void close() {
        for (StreamCompressor c : compressors) {
            if (c != null) {
                c.close();
            }
        }
        if (nested != null) {
            nested.close();
        }
    }
}
