package io.sluice.broker.move;

import io.sluice.codec.message.FieldMessage;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;

/**
 * Target to source: the transfer is over (completed or cancelled); release its pins. Schema v0: transferId,
 * completed. Mutable holder; not thread-safe.
 */
public final class MoveCloseRequest extends FieldMessage {
    private static final String[] FIELDS = {"transferId", "completed"};

    public long transferId;
    public boolean completed;

    public MoveCloseRequest() {
    }

    public MoveCloseRequest(long transferId, boolean completed) {
        this.transferId = transferId;
        this.completed = completed;
    }

    @Override public int typeId() { return MoveMessages.CLOSE_REQUEST; }
    @Override protected int fieldCount(int version) { return FIELDS.length; }
    @Override public String fieldName(int index) { return index < FIELDS.length ? FIELDS[index] : "end"; }

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
