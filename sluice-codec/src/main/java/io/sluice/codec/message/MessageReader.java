package io.sluice.codec.message;

import io.sluice.codec.CodecConfig;
import io.sluice.codec.error.LimitExceededException;
import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.error.UnknownMessageTypeException;
import io.sluice.codec.error.UnsupportedVersionException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads messages written by {@link MessageWriter} from any split of their bytes: {@link #read()} consumes every byte
 * it is given and returns {@code null} until the message is complete. Field reads follow one pattern: call
 * {@code readXxx()}, then return {@code false} from {@link Message#readFrom} if {@link #isLastRead()} is false. The
 * fields themselves are read by {@link FieldReader}, which this class extends; here are whole messages, nesting,
 * lists and maps.
 *
 * <p>Every declared length is checked against {@link CodecConfig} before use, and arrays and collections are
 * allocated no larger than the bytes actually present, growing as more arrive. Bad input raises a
 * {@link MalformedInputException} subtype naming the field path and the values seen. After an exception, call
 * {@link #reset()} before reading again. A reader holds no native resources; {@link #close()} releases nothing and is
 * there for owners that end their readers uniformly.
 *
 * <p>Not thread-safe; one per network thread (or connection), reused across messages.
 */
public final class MessageReader extends FieldReader implements AutoCloseable {
    private final MessageRegistry registry;

    private ReaderFrame[] frames = new ReaderFrame[4];
    private int depth;
    private ReaderFrame cur;
    private boolean rootInProgress;

    public MessageReader(MessageRegistry registry) {
        this(registry, CodecConfig.DEFAULT);
    }

    public MessageReader(MessageRegistry registry, CodecConfig config) {
        super(config);
        this.registry = registry;
        for (int i = 0; i < frames.length; i++) {
            frames[i] = new ReaderFrame();
        }
        cur = frames[0];
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
        resetField();
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
            if (v < 0) {
                // a ten-byte varint decodes to a negative long
                throw new MalformedInputException(registry.name(f.typeId) + ": schema version " + v + " is negative");
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

    /** Path of the field being read, e.g. {@code PartitionMap.partitions[2]/PartitionAssignment.isr}. */
    @Override
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

    /** Releases nothing: a reader holds no native resources. */
    @Override
    public void close() {}
}
