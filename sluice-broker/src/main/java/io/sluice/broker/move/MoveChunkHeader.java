package io.sluice.broker.move;

import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;

/**
 * Source to target: the header in front of {@code length} raw file bytes (sent by sendfile after it, outside the
 * codec), with their CRC-32C. On an error {@code length} is 0. Schema v0: errorCode, errorMessage, transferId,
 * fileKind, fileOffset, position, length, crc32c. Mutable holder; not thread-safe.
 */
public final class MoveChunkHeader extends MoveMessage {

    public short errorCode;
    public String errorMessage;
    public long transferId;
    public byte fileKind;
    public long fileOffset;
    public long position;
    public int length;
    public int crc32c;

    public MoveChunkHeader() {
        super(
                MoveMessages.CHUNK_HEADER,
                "errorCode",
                "errorMessage",
                "transferId",
                "fileKind",
                "fileOffset",
                "position",
                "length",
                "crc32c");
    }

    /** Checks that a successful header answers {@code request} with 1..maxLength bytes. */
    void validateAgainst(MoveChunkRequest request) {
        if (transferId != request.transferId
                || fileKind != request.fileKind
                || fileOffset != request.fileOffset
                || position != request.position) {
            throw new MoveProtocolException(
                    "MoveChunkHeader",
                    "answers transfer " + transferId + " file " + fileKind + "/" + fileOffset + " at " + position
                            + ", not the request " + request);
        }
        if (length <= 0 || length > request.maxLength) {
            throw new MoveProtocolException(
                    "MoveChunkHeader.length", length + " outside [1, " + request.maxLength + "]");
        }
    }

    @Override
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeShort(errorCode);
            case 1 -> w.writeString(errorMessage);
            case 2 -> w.writeLong(transferId);
            case 3 -> w.writeByte(fileKind);
            case 4 -> w.writeLong(fileOffset);
            case 5 -> w.writeLong(position);
            case 6 -> w.writeInt(length);
            default -> w.writeInt(crc32c);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> errorCode = r.readShort();
            case 1 -> errorMessage = r.readString();
            case 2 -> transferId = r.readLong();
            case 3 -> fileKind = r.readByte();
            case 4 -> fileOffset = r.readLong();
            case 5 -> position = r.readLong();
            case 6 -> length = r.readInt();
            default -> crc32c = r.readInt();
        }
        return r.isLastRead();
    }

    @Override
    public String toString() {
        return "MoveChunkHeader{" + transferId + ", error=" + errorCode + ", kind=" + fileKind + ", file=" + fileOffset
                + ", pos=" + position + ", len=" + length + "}";
    }
}
