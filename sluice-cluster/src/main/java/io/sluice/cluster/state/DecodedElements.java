package io.sluice.cluster.state;

import io.sluice.cluster.state.wire.ConfigRecord;
import io.sluice.codec.error.MalformedInputException;

/** Typed access to the elements of decoded record lists, garbage being malformed input. Stateless; thread-safe. */
final class DecodedElements {
    private DecodedElements() {}

    /** A decoded list element of the expected record type; a null or another message (garbage) is malformed. */
    static <T> T element(Class<T> type, Object decoded, String where) {
        if (!type.isInstance(decoded)) {
            throw new MalformedInputException(where + ": expected a " + type.getSimpleName() + " but read "
                    + (decoded == null ? "null" : decoded.getClass().getSimpleName()));
        }
        return type.cast(decoded);
    }

    /** A decoded element of a delta's configChanges (or a snapshot's broker configs, named the same way). */
    static ConfigRecord configChange(Object change, long seq) {
        return element(ConfigRecord.class, change, "delta " + seq + " configChanges");
    }
}
