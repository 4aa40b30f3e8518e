package io.sluice.cluster.state.wire;

import io.sluice.cluster.state.ScramCredentialEntry;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;

/**
 * One user's SCRAM credential for one mechanism in a delta (set or deleted) or a snapshot (see
 * {@link ScramCredentialEntry}); {@link #toEntry()} and {@link #toKey()} check it. A deletion carries only the user and
 * the mechanism (empty arrays, zero iterations).
 * Schema v0: user, mechanism, salt, storedKey, serverKey, iterations. Mutable value holder; not thread-safe.
 */
public final class ScramRecord implements Message {
    private static final String[] FIELDS = {"user", "mechanism", "salt", "storedKey", "serverKey", "iterations"};
    private static final byte[] NONE = new byte[0];

    public String user;
    public byte mechanism;
    public byte[] salt = NONE;
    public byte[] storedKey = NONE;
    public byte[] serverKey = NONE;
    public int iterations;

    public static ScramRecord of(ScramCredentialEntry e) {
        ScramRecord r = deletion(e.key());
        r.salt = e.salt();
        r.storedKey = e.storedKey();
        r.serverKey = e.serverKey();
        r.iterations = e.iterations();
        return r;
    }

    /** The record that deletes {@code key}'s credential. */
    public static ScramRecord deletion(ScramCredentialEntry.Key key) {
        ScramRecord r = new ScramRecord();
        r.user = key.user();
        r.mechanism = key.mechanism();
        return r;
    }

    /**
     * The credential read.
     *
     * @throws io.sluice.codec.error.MalformedInputException naming the field that holds no usable value
     */
    public ScramCredentialEntry toEntry() {
        return new ScramCredentialEntry(toKey(), salt, storedKey, serverKey, iterations);
    }

    /**
     * The user and mechanism read.
     *
     * @throws io.sluice.codec.error.MalformedInputException for an empty user or an unknown mechanism
     */
    public ScramCredentialEntry.Key toKey() {
        return new ScramCredentialEntry.Key(user, mechanism);
    }

    @Override
    public int typeId() {
        return StateMessages.SCRAM;
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean writeTo(MessageWriter w) {
        switch (w.state()) {
            case 0:
                if (!w.writeString(user)) {
                    return false;
                }
                w.incrementState();
            case 1:
                if (!w.writeByte(mechanism)) {
                    return false;
                }
                w.incrementState();
            case 2:
                if (!w.writeByteArray(salt)) {
                    return false;
                }
                w.incrementState();
            case 3:
                if (!w.writeByteArray(storedKey)) {
                    return false;
                }
                w.incrementState();
            case 4:
                if (!w.writeByteArray(serverKey)) {
                    return false;
                }
                w.incrementState();
            case 5:
                if (!w.writeInt(iterations)) {
                    return false;
                }
                w.incrementState();
            default:
                return true;
        }
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean readFrom(MessageReader r) {
        switch (r.state()) {
            case 0:
                user = r.readString();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 1:
                mechanism = r.readByte();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 2:
                salt = r.readByteArray();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 3:
                storedKey = r.readByteArray();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 4:
                serverKey = r.readByteArray();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 5:
                iterations = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            default:
                return true;
        }
    }

    @Override
    public String fieldName(int index) {
        return index < FIELDS.length ? FIELDS[index] : "end";
    }
}
