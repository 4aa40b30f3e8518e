package io.sluice.cluster.state.wire;

import io.sluice.cluster.state.ScramCredentialEntry;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;

/**
 * One user's SCRAM credential for one mechanism in a delta (set or deleted) or a snapshot (see
 * {@link ScramCredentialEntry}); {@link #toEntry()} and {@link #toKey()} check it. A deletion carries only the user and
 * the mechanism (empty arrays, zero iterations).
 * Schema v0: user, mechanism, salt, storedKey, serverKey, iterations. Mutable value holder; not thread-safe.
 */
public final class ScramRecord extends StateRecord {
    private static final RecordSchema SCHEMA =
            RecordSchema.of(StateMessages.SCRAM, "user", "mechanism", "salt", "storedKey", "serverKey", "iterations");
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
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeString(user);
            case 1 -> w.writeByte(mechanism);
            case 2 -> w.writeByteArray(salt);
            case 3 -> w.writeByteArray(storedKey);
            case 4 -> w.writeByteArray(serverKey);
            case 5 -> w.writeInt(iterations);
            default -> throw new IllegalStateException("ScramRecord field " + index);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> user = r.readString();
            case 1 -> mechanism = r.readByte();
            case 2 -> salt = r.readByteArray();
            case 3 -> storedKey = r.readByteArray();
            case 4 -> serverKey = r.readByteArray();
            case 5 -> iterations = r.readInt();
            default -> throw new IllegalStateException("ScramRecord field " + index);
        }
        return r.isLastRead();
    }

    @Override
    RecordSchema schema() {
        return SCHEMA;
    }
}
