package io.sluice.broker.move;

import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;

/**
 * Target to source: start (or, with a known {@code transferId}, rejoin) the transfer of a partition's closed
 * segments. Schema v0: transferId, topic, partition, leaderEpoch (-1: not checked). Mutable holder; not thread-safe.
 */
public final class MoveOpenRequest extends MoveMessage {

    public long transferId;
    public String topic;
    public int partition;
    public int leaderEpoch;

    public MoveOpenRequest() {
        super(MoveMessages.OPEN_REQUEST, "transferId", "topic", "partition", "leaderEpoch");
    }

    public MoveOpenRequest(long transferId, String topic, int partition, int leaderEpoch) {
        this();
        this.transferId = transferId;
        this.topic = topic;
        this.partition = partition;
        this.leaderEpoch = leaderEpoch;
    }

    /** Field checks a parser cannot make; throws naming the field. */
    void validate() {
        if (topic == null || topic.isEmpty()) {
            throw new MoveProtocolException("MoveOpenRequest.topic", "is " + (topic == null ? "null" : "empty"));
        }
        if (partition < 0) {
            throw new MoveProtocolException("MoveOpenRequest.partition", "is " + partition);
        }
    }

    @Override
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeLong(transferId);
            case 1 -> w.writeString(topic);
            case 2 -> w.writeInt(partition);
            default -> w.writeInt(leaderEpoch);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> transferId = r.readLong();
            case 1 -> topic = r.readString();
            case 2 -> partition = r.readInt();
            default -> leaderEpoch = r.readInt();
        }
        return r.isLastRead();
    }

    @Override
    public String toString() {
        return "MoveOpenRequest{" + transferId + ", " + topic + "-" + partition + ", leaderEpoch=" + leaderEpoch + "}";
    }
}
