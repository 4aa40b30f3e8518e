package io.sluice.broker.move;

import io.sluice.codec.message.FieldMessage;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;

/** Source to target: the answer to {@link MoveCloseRequest}. Schema v0: errorCode. Mutable holder; not thread-safe. */
public final class MoveCloseResponse extends FieldMessage {
    public short errorCode;

    @Override public int typeId() { return MoveMessages.CLOSE_RESPONSE; }
    @Override protected int fieldCount(int version) { return 1; }
    @Override public String fieldName(int index) { return index == 0 ? "errorCode" : "end"; }

    @Override
    protected boolean writeField(MessageWriter w, int index) {
        return w.writeShort(errorCode);
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        errorCode = r.readShort();
        return r.isLastRead();
    }
}
