package io.sluice.codec.sample;

import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.message.ElementType;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The controller's full partition map: live brokers and every partition assignment. This is also the cluster state
 * the controller streams compressed into ZooKeeper. Brokers travel as an endpoint-keyed map in the form of two
 * parallel lists (brokerEndpoints[i] is the address of brokerIds[i]), so readers never build a map they do not need.
 * Schema v0: controllerEpoch, mapVersion, brokerEndpoints, brokerIds, partitions.
 * Mutable value holder; not thread-safe.
 */
public final class PartitionMap implements Message {
    public static final int TYPE_ID = ClusterMessages.PARTITION_MAP;
    private static final String[] FIELDS = {
        "controllerEpoch", "mapVersion", "brokerEndpoints", "brokerIds", "partitions"
    };

    public int controllerEpoch;
    public long mapVersion;
    public List<Endpoint> brokerEndpoints = new ArrayList<>();
    public int[] brokerIds = new int[0];
    public List<PartitionAssignment> partitions = new ArrayList<>();

    public PartitionMap() {}

    public PartitionMap(
            int controllerEpoch,
            long mapVersion,
            List<Endpoint> brokerEndpoints,
            int[] brokerIds,
            List<PartitionAssignment> partitions) {
        this.controllerEpoch = controllerEpoch;
        this.mapVersion = mapVersion;
        this.brokerEndpoints = brokerEndpoints;
        this.brokerIds = brokerIds;
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
                if (!w.writeInt(controllerEpoch)) {
                    return false;
                }
                w.incrementState();
            case 1:
                if (!w.writeLong(mapVersion)) {
                    return false;
                }
                w.incrementState();
            case 2:
                if (!w.writeList(brokerEndpoints, ElementType.ENDPOINT)) {
                    return false;
                }
                w.incrementState();
            case 3:
                if (!w.writeIntArray(brokerIds)) {
                    return false;
                }
                w.incrementState();
            case 4:
                if (!w.writeList(partitions, ElementType.MESSAGE)) {
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
                mapVersion = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 2:
                List<Endpoint> endpoints = r.readList(ElementType.ENDPOINT);
                if (!r.isLastRead()) {
                    return false;
                }
                brokerEndpoints = endpoints;
                r.incrementState();
            case 3:
                int[] ids = r.readIntArray();
                if (!r.isLastRead()) {
                    return false;
                }
                int endpointCount = brokerEndpoints == null ? 0 : brokerEndpoints.size();
                int idCount = ids == null ? 0 : ids.length;
                if (endpointCount != idCount) {
                    throw new MalformedInputException("PartitionMap.brokerIds: " + idCount + " ids for " + endpointCount
                            + " endpoints; the parallel lists must match");
                }
                brokerIds = ids;
                r.incrementState();
            case 4:
                List<PartitionAssignment> l = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                partitions = l;
                r.incrementState();
            default:
                return true;
        }
    }

    /** Broker id at {@code endpoint}, or -1; linear, for tests and tools. */
    public int brokerIdOf(Endpoint endpoint) {
        int i = brokerEndpoints.indexOf(endpoint);
        return i < 0 ? -1 : brokerIds[i];
    }

    @Override
    public String fieldName(int index) {
        return index < FIELDS.length ? FIELDS[index] : "end";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionMap p
                && controllerEpoch == p.controllerEpoch
                && mapVersion == p.mapVersion
                && Objects.equals(brokerEndpoints, p.brokerEndpoints)
                && Arrays.equals(brokerIds, p.brokerIds)
                && Objects.equals(partitions, p.partitions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(controllerEpoch, mapVersion);
    }

    @Override
    public String toString() {
        return "PartitionMap{controllerEpoch=" + controllerEpoch + ", version=" + mapVersion + ", brokers="
                + brokerEndpoints + "=" + Arrays.toString(brokerIds) + ", partitions=" + partitions + "}";
    }
}
