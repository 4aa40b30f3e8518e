package io.sluice.codec.sample;

import io.sluice.codec.message.FieldMessage;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.Objects;

/**
 * Source to target broker: the header sent before {@code length} raw bytes of a segment file (which follow on the
 * connection by sendfile, outside the codec). Tagged with the partition's leader epoch so a chunk from a stale leader
 * is rejected. Schema v0: moveId, leaderEpoch, segmentBaseOffset, filePosition, length, crc32c, lastChunkOfSegment.
 * Mutable value holder; not thread-safe.
 */
public final class MoveChunkHeader extends FieldMessage {
    public static final int TYPE_ID = ClusterMessages.MOVE_CHUNK_HEADER;
    private static final String[] FIELDS = {
        "moveId", "leaderEpoch", "segmentBaseOffset", "filePosition", "length", "crc32c", "lastChunkOfSegment"
    };

    public long moveId;
    public int leaderEpoch;
    public long segmentBaseOffset;
    public long filePosition;
    public int length;
    public int crc32c;
    public boolean lastChunkOfSegment;

    public MoveChunkHeader() {}

    public MoveChunkHeader(
            long moveId,
            int leaderEpoch,
            long segmentBaseOffset,
            long filePosition,
            int length,
            int crc32c,
            boolean lastChunkOfSegment) {
        this.moveId = moveId;
        this.leaderEpoch = leaderEpoch;
        this.segmentBaseOffset = segmentBaseOffset;
        this.filePosition = filePosition;
        this.length = length;
        this.crc32c = crc32c;
        this.lastChunkOfSegment = lastChunkOfSegment;
    }

    @Override
    public int typeId() {
        return TYPE_ID;
    }

    @Override
    protected int fieldCount(int version) {
        return FIELDS.length;
    }

    @Override
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeLong(moveId);
            case 1 -> w.writeInt(leaderEpoch);
            case 2 -> w.writeLong(segmentBaseOffset);
            case 3 -> w.writeLong(filePosition);
            case 4 -> w.writeInt(length);
            case 5 -> w.writeInt(crc32c);
            default -> w.writeBoolean(lastChunkOfSegment);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> moveId = r.readLong();
            case 1 -> leaderEpoch = r.readInt();
            case 2 -> segmentBaseOffset = r.readLong();
            case 3 -> filePosition = r.readLong();
            case 4 -> length = r.readInt();
            case 5 -> crc32c = r.readInt();
            default -> lastChunkOfSegment = r.readBoolean();
        }
        return r.isLastRead();
    }

    @Override
    public String fieldName(int index) {
        return index < FIELDS.length ? FIELDS[index] : "end";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MoveChunkHeader m
                && moveId == m.moveId
                && leaderEpoch == m.leaderEpoch
                && segmentBaseOffset == m.segmentBaseOffset
                && filePosition == m.filePosition
                && length == m.length
                && crc32c == m.crc32c
                && lastChunkOfSegment == m.lastChunkOfSegment;
    }

    @Override
    public int hashCode() {
        return Objects.hash(moveId, segmentBaseOffset, filePosition);
    }

    @Override
    public String toString() {
        return "MoveChunkHeader{" + moveId + ", leaderEpoch=" + leaderEpoch + ", segment=" + segmentBaseOffset
                + ", pos=" + filePosition + ", len=" + length + ", crc=" + crc32c + ", last=" + lastChunkOfSegment
                + "}";
    }
}
