package io.sluice.cluster.state.wire;

import io.sluice.cluster.state.AclEntry;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;

/**
 * One access control entry in a delta (added or removed) or a snapshot, with Kafka's codes for the resource type,
 * pattern type, operation and permission type (see {@link AclEntry}); {@link #toEntry()} checks them.
 * Schema v0: resourceType, resourceName, patternType, principal, host, operation, permissionType.
 * Mutable value holder; not thread-safe.
 */
public final class AclRecord extends StateRecord {
    private static final RecordSchema SCHEMA = RecordSchema.of(
            StateMessages.ACL,
            "resourceType",
            "resourceName",
            "patternType",
            "principal",
            "host",
            "operation",
            "permissionType");

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
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeByte(resourceType);
            case 1 -> w.writeString(resourceName);
            case 2 -> w.writeByte(patternType);
            case 3 -> w.writeString(principal);
            case 4 -> w.writeString(host);
            case 5 -> w.writeByte(operation);
            case 6 -> w.writeByte(permissionType);
            default -> throw new IllegalStateException("AclRecord field " + index);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> resourceType = r.readByte();
            case 1 -> resourceName = r.readString();
            case 2 -> patternType = r.readByte();
            case 3 -> principal = r.readString();
            case 4 -> host = r.readString();
            case 5 -> operation = r.readByte();
            case 6 -> permissionType = r.readByte();
            default -> throw new IllegalStateException("AclRecord field " + index);
        }
        return r.isLastRead();
    }

    @Override
    RecordSchema schema() {
        return SCHEMA;
    }
}
