package io.sluice.cluster.state.wire;

import io.sluice.cluster.state.BrokerInfo;
import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.message.ElementType;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.List;

/**
 * A broker's registration: the data of its ephemeral znode and its entry in snapshots and deltas. Listener names and
 * endpoints travel as parallel lists (endpoint bytes, never host strings).
 * Schema v0: brokerId, rack, listenerNames, endpoints. Mutable value holder; not thread-safe.
 */
public final class BrokerRecord extends StateRecord {
    private static final RecordSchema SCHEMA =
            RecordSchema.of(StateMessages.BROKER, "brokerId", "rack", "listenerNames", "endpoints");

    public int brokerId;
    public String rack = "";
    public List<String> listenerNames = List.of();
    public List<Endpoint> endpoints = List.of();

    public BrokerRecord() {}

    public static BrokerRecord of(BrokerInfo info) {
        BrokerRecord r = new BrokerRecord();
        r.brokerId = info.id();
        r.rack = info.rack();
        r.listenerNames = info.listenerNames();
        r.endpoints = info.endpoints();
        return r;
    }

    /** The broker this record describes; a record with inconsistent lists is malformed. */
    public BrokerInfo toInfo() {
        if (brokerId < 0) {
            throw new MalformedInputException("BrokerRecord.brokerId: " + brokerId + " is negative");
        }
        List<String> names = listenerNames == null ? List.of() : listenerNames;
        List<Endpoint> eps = endpoints == null ? List.of() : endpoints;
        if (names.size() != eps.size() || hasNull(names) || hasNull(eps)) {
            throw new MalformedInputException("BrokerRecord " + brokerId + ": " + names.size() + " listener names but "
                    + eps.size() + " endpoints (or null entries)");
        }
        return new BrokerInfo(brokerId, rack == null ? "" : rack, names, eps);
    }

    private static boolean hasNull(List<?> list) {
        for (Object o : list) {
            if (o == null) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeInt(brokerId);
            case 1 -> w.writeString(rack);
            case 2 -> w.writeList(listenerNames, ElementType.STRING);
            case 3 -> w.writeList(endpoints, ElementType.ENDPOINT);
            default -> throw new IllegalStateException("BrokerRecord field " + index);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> brokerId = r.readInt();
            case 1 -> rack = r.readString();
            case 2 -> listenerNames = r.readList(ElementType.STRING);
            case 3 -> endpoints = r.readList(ElementType.ENDPOINT);
            default -> throw new IllegalStateException("BrokerRecord field " + index);
        }
        return r.isLastRead();
    }

    @Override
    RecordSchema schema() {
        return SCHEMA;
    }
}
