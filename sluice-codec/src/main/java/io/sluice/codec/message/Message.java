package io.sluice.codec.message;

/**
 * A broker-to-broker message: written field by field by {@link MessageWriter}, read back by {@link MessageReader},
 * both resumable at any byte. Implementations follow one pattern: a fall-through {@code switch} over
 * {@code writer.state()} / {@code reader.state()} where each case writes or reads one field, returns {@code false}
 * when the buffer ran out and calls {@code incrementState()} after the field completed. Instances are mutable
 * value holders; not thread-safe; a message being written must not change until the write returns {@code true}.
 */
public interface Message {

    /** Type id registered in a {@link MessageRegistry}; 0..{@link MessageRegistry#MAX_TYPE_ID}. */
    int typeId();

    /** Schema version this instance writes; readers accept every version up to the registered maximum. */
    default int version() {
        return 0;
    }

    /** Writes the fields from {@code writer.state()} on; {@code false} when the buffer is full. */
    boolean writeTo(MessageWriter writer);

    /**
     * Reads the fields from {@code reader.state()} on, for schema {@code reader.version()}; {@code false} when more
     * bytes are needed.
     */
    boolean readFrom(MessageReader reader);

    /** Name of field {@code index}, for error messages. */
    default String fieldName(int index) {
        return "#" + index;
    }
}
