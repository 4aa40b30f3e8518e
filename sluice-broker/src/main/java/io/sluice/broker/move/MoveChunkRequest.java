package io.sluice.broker.move;

import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;

/**
 * Target to source: send up to {@code maxLength} bytes of one file from {@code position} (the target's last verified
 * byte, so a resumed transfer asks exactly for what it lacks). Schema v0: transferId, fileKind, fileOffset (segment
 * base offset or snapshot offset), position, maxLength. Mutable holder; not thread-safe.
 */
public final class MoveChunkRequest extends MoveMessage {

    public long transferId;
    public byte fileKind;
    public long fileOffset;
    public long position;
    public int maxLength;

    public MoveChunkRequest() {
        super(MoveMessages.CHUNK_REQUEST, "transferId", "fileKind", "fileOffset", "position", "maxLength");
    }

    public MoveChunkRequest set(long transferId, byte fileKind, long fileOffset, long position, int maxLength) {
        this.transferId = transferId;
        this.fileKind = fileKind;
        this.fileOffset = fileOffset;
        this.position = position;
        this.maxLength = maxLength;
        return this;
    }

    void validate() {
        if (fileKind != MoveMessages.FILE_SEGMENT && fileKind != MoveMessages.FILE_PRODUCER_SNAPSHOT) {
            throw new MoveProtocolException("MoveChunkRequest.fileKind", "is " + fileKind);
        }
        if (position < 0 || maxLength <= 0) {
            throw new MoveProtocolException("MoveChunkRequest.position/maxLength", position + "/" + maxLength);
        }
    }

    @Override
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeLong(transferId);
            case 1 -> w.writeByte(fileKind);
            case 2 -> w.writeLong(fileOffset);
            case 3 -> w.writeLong(position);
            default -> w.writeInt(maxLength);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> transferId = r.readLong();
            case 1 -> fileKind = r.readByte();
            case 2 -> fileOffset = r.readLong();
            case 3 -> position = r.readLong();
            default -> maxLength = r.readInt();
        }
        return r.isLastRead();
    }

    @Override
    public String toString() {
        return "MoveChunkRequest{" + transferId + ", kind=" + fileKind + ", file=" + fileOffset + ", pos=" + position
                + ", max=" + maxLength + "}";
    }
}
