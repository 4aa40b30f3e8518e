package io.sluice.cluster.state.wire;

import io.sluice.codec.message.FieldMessage;

/**
 * Base of the cluster-state records: {@link FieldMessage} keeps the resumable field cursor, the record's
 * {@link RecordSchema} constant gives the type id, the field names and the fields each schema version carries, so a
 * record class holds only its fields, their order on the wire and what an older version defaults. Not thread-safe;
 * subclasses are mutable value holders.
 */
abstract class StateRecord extends FieldMessage {

    /** The record class's schema constant (shared, so a record costs no more memory than its fields). */
    abstract RecordSchema schema();

    @Override
    public final int typeId() {
        return schema().typeId();
    }

    @Override
    protected final int fieldCount(int version) {
        return schema().fieldCount(version);
    }

    @Override
    public final String fieldName(int index) {
        return schema().fieldName(index);
    }
}
