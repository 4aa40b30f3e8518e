package io.sluice.broker.move;

import io.sluice.codec.message.FieldMessage;

/**
 * Base of the partition-move messages: the type id and the field names of schema v0, for the codec and its error
 * messages. Not thread-safe; subclasses are mutable value holders.
 */
abstract class MoveMessage extends FieldMessage {
    private final int typeId;
    private final String[] fields;

    MoveMessage(int typeId, String... fields) {
        this.typeId = typeId;
        this.fields = fields;
    }

    @Override
    public final int typeId() {
        return typeId;
    }

    @Override
    protected final int fieldCount(int version) {
        return fields.length;
    }

    @Override
    public final String fieldName(int index) {
        return index < fields.length ? fields[index] : "end";
    }
}
