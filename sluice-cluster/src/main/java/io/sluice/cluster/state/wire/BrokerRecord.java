package io.sluice.cluster.state.wire;

import io.sluice.cluster.state.BrokerInfo;
import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.error.MalformedInputException;
import io.sluice.codec.message.ElementType;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.List;

/**
 * A broker's registration: the data of its ephemeral znode and its entry in snapshots and deltas. Listener names and
 * endpoints travel as parallel lists (endpoint bytes, never host strings).
 * Schema v0: brokerId, rack, listenerNames, endpoints. Mutable value holder; not thread-safe.
 */
public final class BrokerRecord implements Message {
    private static final String[] FIELDS = {"brokerId", "rack", "listenerNames", "endpoints"};

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
    public int typeId() {
        return StateMessages.BROKER;
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
                if (!w.writeString(rack)) {
                    return false;
                }
                w.incrementState();
            case 2:
                if (!w.writeList(listenerNames, ElementType.STRING)) {
                    return false;
                }
                w.incrementState();
            case 3:
                if (!w.writeList(endpoints, ElementType.ENDPOINT)) {
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
                rack = r.readString();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 2:
                listenerNames = r.readList(ElementType.STRING);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 3:
                endpoints = r.readList(ElementType.ENDPOINT);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            default:
                return true;
        }
    }

    @Override
    public String fieldName(int index) {
        return index < FIELDS.length ? FIELDS[index] : "end";
    }
}
