package io.sluice.codec.sample;

import io.sluice.codec.message.ElementType;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The partitions of a {@link PartitionStateReport}; travels as its nested message. Schema v0: partitions.
 * Mutable value holder; not thread-safe.
 */
public final class PartitionStateList implements Message {
    public static final int TYPE_ID = ClusterMessages.PARTITION_STATE_LIST;

    public List<PartitionState> partitions = new ArrayList<>();

    public PartitionStateList() {}

    public PartitionStateList(List<PartitionState> partitions) {
        this.partitions = partitions;
    }

    @Override
    public int typeId() {
        return TYPE_ID;
    }

    @Override
    public boolean writeTo(MessageWriter w) {
        if (w.state() == 0) {
            if (!w.writeList(partitions, ElementType.MESSAGE)) {
                return false;
            }
            w.incrementState();
        }
        return true;
    }

    @Override
    public boolean readFrom(MessageReader r) {
        if (r.state() == 0) {
            List<PartitionState> l = r.readList(ElementType.MESSAGE);
            if (!r.isLastRead()) {
                return false;
            }
            partitions = l;
            r.incrementState();
        }
        return true;
    }

    @Override
    public String fieldName(int index) {
        return index == 0 ? "partitions" : "end";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionStateList l && java.util.Objects.equals(partitions, l.partitions);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hashCode(partitions);
    }

    @Override
    public String toString() {
        return "PartitionStateList" + partitions;
    }
}
