package io.sluice.broker.group.store;

import java.io.IOException;

/** A stored record whose checksum is valid but whose content cannot be decoded. Immutable. */
public final class GroupStoreCorruptException extends IOException {
    private static final long serialVersionUID = 1L;

    public GroupStoreCorruptException(String message) {
        super(message);
    }
}
