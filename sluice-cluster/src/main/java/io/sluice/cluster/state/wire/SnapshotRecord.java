package io.sluice.cluster.state.wire;

import io.sluice.codec.message.ElementType;
import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole cluster state at one point of the delta log: streamed through the compressor and cut into parts.
 * Schema v0: controllerEpoch, lastDeltaSeq, brokers, topics.
 * Schema v1 adds brokerConfigs (the dynamic broker configurations, per broker id and the cluster default, as
 * {@link ConfigRecord}s); a v0 snapshot reads it as empty. Written as v1 only when there is a dynamic broker
 * configuration.
 * Schema v2 adds acls (every access control entry, as {@link AclRecord}s); an older snapshot reads it as empty.
 * Written as v2 only when there is an ACL.
 * Schema v3 adds scramCredentials (every stored SCRAM credential, as {@link ScramRecord}s); an older snapshot reads it
 * as empty. Written as v3 only when there is a SCRAM credential. Mutable value holder; not thread-safe.
 */
public final class SnapshotRecord implements Message {
    private static final String[] FIELDS = {
        "controllerEpoch", "lastDeltaSeq", "brokers", "topics", "brokerConfigs", "acls", "scramCredentials"
    };
    public static final int CURRENT_VERSION = 3;

    public int controllerEpoch;
    /** Sequence number of the last delta folded in; deltas after it apply on top. */
    public long lastDeltaSeq;

    public List<BrokerRecord> brokers = new ArrayList<>();
    public List<TopicRecord> topics = new ArrayList<>();
    /** Dynamic broker configurations (schema v1). */
    public List<ConfigRecord> brokerConfigs = new ArrayList<>();
    /** Access control entries (schema v2). */
    public List<AclRecord> acls = new ArrayList<>();
    /** SCRAM credentials (schema v3). */
    public List<ScramRecord> scramCredentials = new ArrayList<>();

    @Override
    public int version() {
        if (!scramCredentials.isEmpty()) {
            return 3;
        }
        if (!acls.isEmpty()) {
            return 2;
        }
        return brokerConfigs.isEmpty() ? 0 : 1;
    }

    @Override
    public int typeId() {
        return StateMessages.SNAPSHOT;
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
                if (!w.writeLong(lastDeltaSeq)) {
                    return false;
                }
                w.incrementState();
            case 2:
                if (!w.writeList(brokers, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
            case 3:
                if (!w.writeList(topics, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
                if (version() < 1) {
                    return true;
                }
            case 4:
                if (!w.writeList(brokerConfigs, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
                if (version() < 2) {
                    return true;
                }
            case 5:
                if (!w.writeList(acls, ElementType.MESSAGE)) {
                    return false;
                }
                w.incrementState();
                if (version() < 3) {
                    return true;
                }
            case 6:
                if (!w.writeList(scramCredentials, ElementType.MESSAGE)) {
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
                lastDeltaSeq = r.readLong();
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 2:
                brokers = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
            case 3:
                topics = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
                if (r.version() < 1) {
                    brokerConfigs = new ArrayList<>();
                    acls = new ArrayList<>();
                    scramCredentials = new ArrayList<>();
                    return true;
                }
            case 4:
                brokerConfigs = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
                if (r.version() < 2) {
                    acls = new ArrayList<>();
                    scramCredentials = new ArrayList<>();
                    return true;
                }
            case 5:
                acls = r.readList(ElementType.MESSAGE);
                if (!r.isLastRead()) {
                    return false;
                }
                r.incrementState();
                if (r.version() < 3) {
                    scramCredentials = new ArrayList<>();
                    return true;
                }
            case 6:
                scramCredentials = r.readList(ElementType.MESSAGE);
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
