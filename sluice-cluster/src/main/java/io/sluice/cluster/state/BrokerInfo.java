package io.sluice.cluster.state;

import io.sluice.codec.endpoint.Endpoint;
import java.util.List;
import java.util.Objects;

/**
 * A live broker as the cluster knows it: id, rack and its listeners as endpoint bytes (listener names and endpoints
 * are parallel lists: {@code endpoints.get(i)} is the address of {@code listenerNames.get(i)}). Immutable; safe to
 * share.
 *
 * @param id            broker.id
 * @param rack          broker.rack, empty when not configured
 * @param listenerNames listener names, e.g. PLAINTEXT
 * @param endpoints     listener addresses, endpoint bytes
 */
public record BrokerInfo(int id, String rack, List<String> listenerNames, List<Endpoint> endpoints) {

    public BrokerInfo {
        Objects.requireNonNull(rack, "rack");
        listenerNames = List.copyOf(listenerNames);
        endpoints = List.copyOf(endpoints);
        if (listenerNames.size() != endpoints.size()) {
            throw new IllegalArgumentException("broker " + id + ": " + listenerNames.size() + " listener names but "
                    + endpoints.size() + " endpoints");
        }
        if (id < 0) {
            throw new IllegalArgumentException("broker id must be >= 0, was " + id);
        }
    }

    /** A broker with one PLAINTEXT listener. */
    public static BrokerInfo of(int id, String rack, Endpoint endpoint) {
        return new BrokerInfo(id, rack, List.of("PLAINTEXT"), List.of(endpoint));
    }

    public boolean hasRack() {
        return !rack.isEmpty();
    }

    /**
     * The first endpoint, or null when the broker has no listener: brokers register their inter-broker listener first,
     * so this is where other brokers reach this one (replication, controller channel, partition moves).
     */
    public Endpoint primaryEndpoint() {
        return endpoints.isEmpty() ? null : endpoints.get(0);
    }

    /** The endpoint of listener {@code listenerName}, or null when the broker has no such listener. */
    public Endpoint endpoint(String listenerName) {
        int i = listenerNames.indexOf(listenerName);
        return i < 0 ? null : endpoints.get(i);
    }
}
