package io.sluice.cluster.state.wire;

import io.sluice.codec.message.ElementType;
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
 * as empty. Written as v3 only when there is a SCRAM credential.
 * Schema v4 adds shuttingDownBrokers (the live brokers in controlled shutdown, ascending); an older snapshot reads it
 * as empty. Written as v4 only when a broker is in controlled shutdown. Mutable value holder; not thread-safe.
 */
public final class SnapshotRecord extends StateRecord {
    /** v0 ends at topics, v1 adds brokerConfigs, v2 acls, v3 scramCredentials, v4 shuttingDownBrokers. */
    private static final RecordSchema SCHEMA = RecordSchema.grown(
            StateMessages.SNAPSHOT,
            new int[] {4, 5, 6, 7},
            "controllerEpoch",
            "lastDeltaSeq",
            "brokers",
            "topics",
            "brokerConfigs",
            "acls",
            "scramCredentials",
            "shuttingDownBrokers");

    public static final int CURRENT_VERSION = 4;

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
    /** Live brokers in controlled shutdown (schema v4). */
    public int[] shuttingDownBrokers = new int[0];

    @Override
    public int version() {
        if (shuttingDownBrokers.length > 0) {
            return 4;
        }
        if (!scramCredentials.isEmpty()) {
            return 3;
        }
        if (!acls.isEmpty()) {
            return 2;
        }
        return brokerConfigs.isEmpty() ? 0 : 1;
    }

    @Override
    protected boolean writeField(MessageWriter w, int index) {
        return switch (index) {
            case 0 -> w.writeInt(controllerEpoch);
            case 1 -> w.writeLong(lastDeltaSeq);
            case 2 -> w.writeList(brokers, ElementType.MESSAGE);
            case 3 -> w.writeList(topics, ElementType.MESSAGE);
            case 4 -> w.writeList(brokerConfigs, ElementType.MESSAGE);
            case 5 -> w.writeList(acls, ElementType.MESSAGE);
            case 6 -> w.writeList(scramCredentials, ElementType.MESSAGE);
            case 7 -> w.writeIntArray(shuttingDownBrokers);
            default -> throw new IllegalStateException("SnapshotRecord field " + index);
        };
    }

    @Override
    protected boolean readField(MessageReader r, int index) {
        switch (index) {
            case 0 -> controllerEpoch = r.readInt();
            case 1 -> lastDeltaSeq = r.readLong();
            case 2 -> brokers = r.readList(ElementType.MESSAGE);
            case 3 -> topics = r.readList(ElementType.MESSAGE);
            case 4 -> brokerConfigs = r.readList(ElementType.MESSAGE);
            case 5 -> acls = r.readList(ElementType.MESSAGE);
            case 6 -> scramCredentials = r.readList(ElementType.MESSAGE);
            case 7 -> shuttingDownBrokers = r.readIntArray();
            default -> throw new IllegalStateException("SnapshotRecord field " + index);
        }
        return r.isLastRead();
    }

    /** The fields a snapshot of schema {@code version} does not carry read as empty. */
    @Override
    protected void onOlderVersionRead(int version) {
        if (version < 1) {
            brokerConfigs = new ArrayList<>();
        }
        if (version < 2) {
            acls = new ArrayList<>();
        }
        if (version < 3) {
            scramCredentials = new ArrayList<>();
        }
        if (version < 4) {
            shuttingDownBrokers = new int[0];
        }
    }

    @Override
    RecordSchema schema() {
        return SCHEMA;
    }
}
