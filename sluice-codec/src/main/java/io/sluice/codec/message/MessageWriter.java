package io.sluice.codec.message;

import io.sluice.codec.CodecConfig;
import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.error.LimitExceededException;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Writes messages field by field into caller-supplied fixed-size buffers (heap or direct). When a buffer fills,
 * {@link #write(Message)} returns {@code false}; after {@link #setBuffer} with a fresh buffer the same call resumes at
 * the exact byte where it stopped, inside any primitive, array, string, list, map or nested message. The wire format
 * is described in {@code WireFormat}. The fields themselves are written by {@link FieldWriter}, which this class
 * extends; here are whole messages, nesting, lists and maps.
 *
 * <p>A call that starts with fewer than {@link #SPILL_THRESHOLD} bytes free (a small socket buffer, or the tail of a
 * large one) writes ahead into a reused {@link #SPILL_BYTES}-byte spill instead and hands its bytes out over this and
 * the following calls, so small buffers cost a copy per buffer instead of a field-by-field resume per buffer; the
 * bytes produced are the same either way. A writer holds no native resources; {@link #close()} releases nothing and
 * is there for owners that end their writers uniformly.
 *
 * <p>Not thread-safe; one per network thread (or connection), reused across messages.
 */
public final class MessageWriter extends FieldWriter implements AutoCloseable {
    private final CodecConfig config;

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

    public MessageWriter() {
        this(CodecConfig.DEFAULT);
    }

    public MessageWriter(CodecConfig config) {
        this.config = config;
        for (int i = 0; i < frames.length; i++) {
            frames[i] = new WriterFrame();
        }
        cur = frames[0];
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

    /** Abandons any message in progress (after an exception, or to drop a half-written message). */
    public void reset() {
        rootInProgress = false;
        spillRead = 0;
        spillEnd = 0;
        spillHoldsEnd = false;
        depth = 0;
        cur = frames[0];
        cur.reset();
        resetField();
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

    /** Releases nothing: a writer holds no native resources. */
    @Override
    public void close() {}
}
