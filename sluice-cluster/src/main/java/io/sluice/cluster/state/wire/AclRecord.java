package io.sluice.cluster.state.wire;

import io.sluice.cluster.state.AclEntry;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;

/**
 * One access control entry in a delta (added or removed) or a snapshot, with Kafka's codes for the resource type,
 * pattern type, operation and permission type (see {@link AclEntry}); {@link #toEntry()} checks them.
 * Schema v0: resourceType, resourceName, patternType, principal, host, operation, permissionType.
 * Mutable value holder; not thread-safe.
 */
public final class AclRecord implements Message {
    private static final String[] FIELDS = {
        "resourceType", "resourceName", "patternType", "principal", "host", "operation", "permissionType"
    };

    public byte resourceType;
    public String resourceName;
    public byte patternType;
    public String principal;
    public String host;
    public byte operation;
    public byte permissionType;

    public static AclRecord of(AclEntry e) {
        AclRecord r = new AclRecord();
        r.resourceType = e.resourceType();
        r.resourceName = e.resourceName();
        r.patternType = e.patternType();
        r.principal = e.principal();
        r.host = e.host();
        r.operation = e.operation();
        r.permissionType = e.permissionType();
        return r;
    }

    /**
     * The entry read.
     *
     * @throws io.sluice.codec.error.MalformedInputException when a field holds no concrete value
     */
    public AclEntry toEntry() {
        return new AclEntry(resourceType, resourceName, patternType, principal, host, operation, permissionType);
    }

    @Override
    public int typeId() {
        return StateMessages.ACL;
    }

    @Override
    @SuppressWarnings("fallthrough")
    public boolean writeTo(MessageWriter w) {
        switch (w.state()) {
            case 0:
                if (!w.writeByte(resourceType)) {
                    return false;
                }
                w.incrementState();
            case 1:
                if (!w.writeString(resourceName)) {
                    return false;
                }
                w.incrementState();
            case 2:
                if (!w.writeByte(patternType)) {
                    return false;
                }
                w.incrementState();
            case 3:
                if (!w.writeString(principal)) {
                    return false;
                }
                w.incrementState();
            case 4:
                if (!w.writeString(host)) {
                    return false;
                }
                w.incrementState();
            case 5:
                if (!w.writeByte(operation)) {
                    return false;
                }
                w.incrementState();
            case 6:
                if (!w.writeByte(permissionType)) {
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
                resourceType = r.readByte();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 1:
                resourceName = r.readString();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 2:
                patternType = r.readByte();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 3:
                principal = r.readString();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 4:
                host = r.readString();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 5:
                operation = r.readByte();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 6:
                permissionType = r.readByte();
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
