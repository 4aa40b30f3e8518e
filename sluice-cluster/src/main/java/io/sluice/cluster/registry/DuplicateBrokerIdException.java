package io.sluice.cluster.registry;

import io.sluice.codec.endpoint.Endpoint;

/**
 * A broker tried to register an id another live broker holds. Immutable; safe to share.
 */
public final class DuplicateBrokerIdException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int brokerId;
    private final transient Endpoint holderEndpoint;

    public DuplicateBrokerIdException(int brokerId, Endpoint holderEndpoint, long holderSession) {
        super("broker.id " + brokerId + " is already registered by the broker at " + holderEndpoint
                + " (ZooKeeper session 0x" + Long.toHexString(holderSession)
                + "); each broker needs its own broker.id");
        this.brokerId = brokerId;
        this.holderEndpoint = holderEndpoint;
    }

    public int brokerId() {
        return brokerId;
    }

    public Endpoint holderEndpoint() {
        return holderEndpoint;
    }
}
