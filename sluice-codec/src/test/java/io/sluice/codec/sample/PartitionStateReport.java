package io.sluice.codec.sample;

import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.Objects;

/**
 * A broker's report of the partitions it hosts, sent to the controller. The partition list is a nested message. Schema v0: brokerId, brokerEpoch, reportSequence, partitions.
 * Mutable value holder; not thread-safe.
 */
public final class PartitionStateReport implements Message {
    public static final int TYPE_ID = ClusterMessages.PARTITION_STATE_REPORT;
    private static final String[] FIELDS = {"brokerId", "brokerEpoch", "reportSequence", "partitions"};

    public int brokerId;
    public long brokerEpoch;
    public long reportSequence;
    public PartitionStateList partitions = new PartitionStateList();

    public PartitionStateReport() {}

    public PartitionStateReport(int brokerId, long brokerEpoch, long reportSequence, PartitionStateList partitions) {
        this.brokerId = brokerId;
        this.brokerEpoch = brokerEpoch;
        this.reportSequence = reportSequence;
        this.partitions = partitions;
    }

    @Override
    public int typeId() {
        return TYPE_ID;
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean writeTo(MessageWriter w) {
        switch (w.state()) {
            case 0:
                if (!w.writeInt(brokerId)) {
                    return false;
                }
                w.incrementState();
            case 1:
                if (!w.writeLong(brokerEpoch)) {
                    return false;
                }
                w.incrementState();
            case 2:
                if (!w.writeLong(reportSequence)) {
                    return false;
                }
                w.incrementState();
            case 3:
                if (!w.writeMessage(partitions)) {
                    return false;
                }
                w.incrementState();
            default:
                return true;
        }
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean readFrom(MessageReader r) {
        switch (r.state()) {
            case 0:
                brokerId = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 1:
                brokerEpoch = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 2:
                reportSequence = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 3:
                PartitionStateList l = r.readMessage(PartitionStateList.class);
                if (!r.isLastRead()) {
                    return false;
                }
                partitions = l;
                r.incrementState();
            default:
                return true;
        }
    }

    @Override
    public String fieldName(int index) {
        return index < FIELDS.length ? FIELDS[index] : "end";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionStateReport p
                && brokerId == p.brokerId
                && brokerEpoch == p.brokerEpoch
                && reportSequence == p.reportSequence
                && Objects.equals(partitions, p.partitions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(brokerId, brokerEpoch, reportSequence);
    }

    @Override
    public String toString() {
        return "PartitionStateReport{broker=" + brokerId + ", brokerEpoch=" + brokerEpoch + ", seq=" + reportSequence
                + ", " + partitions + "}";
    }
}
