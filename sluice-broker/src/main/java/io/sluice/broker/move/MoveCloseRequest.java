package io.sluice.broker.move;

import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;

/**
 * Target to source: the transfer is over (completed or cancelled); release its pins. Schema v0: transferId,
 * completed. Mutable holder; not thread-safe.
 */
public final class MoveCloseRequest extends MoveMessage {

    public long transferId;
    public boolean completed;

    public MoveCloseRequest() {
        super(MoveMessages.CLOSE_REQUEST, "transferId", "completed");
    }

    public MoveCloseRequest(long transferId, boolean completed) {
        this();
        this.transferId = transferId;
        this.completed = completed;
    }

    @Override
    protected boolean writeField(MessageWriter w, int index) {
        return index == 0 ? w.writeLong(transferId) : w.writeBoolean(completed);
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        if (index == 0) {
            transferId = r.readLong();
        } else {
            completed = r.readBoolean();
        }
        return r.isLastRead();
    }
}
