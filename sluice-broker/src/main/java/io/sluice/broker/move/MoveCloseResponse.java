package io.sluice.broker.move;

import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;

/** Source to target: the answer to {@link MoveCloseRequest}. Schema v0: errorCode. Mutable holder; not thread-safe. */
public final class MoveCloseResponse extends MoveMessage {
    public short errorCode;

    public MoveCloseResponse() {
        super(MoveMessages.CLOSE_RESPONSE, "errorCode");
    }

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
