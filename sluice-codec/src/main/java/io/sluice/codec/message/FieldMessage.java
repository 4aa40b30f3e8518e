package io.sluice.codec.message;

/**
 * Base for messages written as a flat sequence of fields: subclasses read or write one field per call, this class
 * keeps the field cursor. Same wire format as a hand-written fall-through switch. Not thread-safe; mutable holder.
 */
public abstract class FieldMessage implements Message {

    /** Number of fields in schema {@code version}. */
    protected abstract int fieldCount(int version);

    /** Writes field {@code index}; {@code false} when the buffer is full. */
    protected abstract boolean writeField(MessageWriter w, int index);

    /** Reads field {@code index} into this message; returns {@code r.isLastRead()}. */
    protected abstract boolean readField(MessageReader r, int index);

    /** Called after every field of an older schema was read, to default the newer fields. */
    protected void onOlderVersionRead(int version) {}

    @Override
    public final boolean writeTo(MessageWriter w) {
        for (int n = fieldCount(version()); w.state() < n; w.incrementState()) {
            if (!writeField(w, w.state())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public final boolean readFrom(MessageReader r) {
        int version = r.version();
        for (int n = fieldCount(version); r.state() < n; r.incrementState()) {
            if (!readField(r, r.state())) {
                return false;
            }
        }
        onOlderVersionRead(version);
        return true;
    }
}
