package io.sluice.codec.sample;

import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.Objects;

/**
 * The full partition map pushed from the controller to a broker, the map as a nested message. Schema v0:
 * controllerEpoch, map.
 * Mutable value holder; not thread-safe.
 */
public final class FullPartitionMap implements Message {
    public static final int TYPE_ID = ClusterMessages.FULL_PARTITION_MAP;

    public int controllerEpoch;
    public PartitionMap map = new PartitionMap();

    public FullPartitionMap() {}

    public FullPartitionMap(int controllerEpoch, PartitionMap map) {
        this.controllerEpoch = controllerEpoch;
        this.map = map;
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
                if (!w.writeInt(controllerEpoch)) {
                    return false;
                }
                w.incrementState();
            case 1:
                if (!w.writeMessage(map)) {
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
                controllerEpoch = r.readInt();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 1:
                PartitionMap m = r.readMessage(PartitionMap.class);
                if (!r.isLastRead()) {
                    return false;
                }
                map = m;
                r.incrementState();
            default:
                return true;
        }
    }

    @Override
    public String fieldName(int index) {
        return index == 0 ? "controllerEpoch" : index == 1 ? "map" : "end";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FullPartitionMap f && controllerEpoch == f.controllerEpoch && Objects.equals(map, f.map);
    }

    @Override
    public int hashCode() {
        return Objects.hash(controllerEpoch, map);
    }

    @Override
    public String toString() {
        return "FullPartitionMap{controllerEpoch=" + controllerEpoch + ", " + map + "}";
    }
}
