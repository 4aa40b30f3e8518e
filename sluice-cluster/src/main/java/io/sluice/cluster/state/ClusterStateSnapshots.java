package io.sluice.cluster.state;

import io.sluice.cluster.state.wire.AclRecord;
import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.ConfigRecord;
import io.sluice.cluster.state.wire.ScramRecord;
import io.sluice.cluster.state.wire.SnapshotRecord;
import io.sluice.cluster.state.wire.TopicRecord;
import io.sluice.codec.error.MalformedInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Converts a {@link ClusterState} to the snapshot record that writes it and back. Stateless; thread-safe. */
final class ClusterStateSnapshots {
    private ClusterStateSnapshots() {}

    /** A snapshot record that writes this state (topics streamed from the live partition arrays, no copy). */
    static SnapshotRecord write(ClusterState state) {
        SnapshotRecord s = new SnapshotRecord();
        s.controllerEpoch = state.controllerEpoch();
        s.lastDeltaSeq = state.appliedSeq();
        s.brokers = new ArrayList<>(state.brokerTable().size());
        for (BrokerInfo info : state.brokerTable()) {
            s.brokers.add(BrokerRecord.of(info));
        }
        s.topics = new ArrayList<>(state.topicsById().size());
        for (TopicState topic : state.topicsById().values()) {
            s.topics.add(TopicRecord.of(topic));
        }
        for (Map.Entry<Integer, Map<String, String>> e :
                state.allBrokerConfigs().entrySet()) {
            s.brokerConfigs.add(ConfigRecord.broker(e.getKey(), e.getValue()));
        }
        if (!state.clientQuotaConfigs().isEmpty()) {
            s.brokerConfigs.add(ConfigRecord.clientQuotas(state.clientQuotaConfigs()));
        }
        for (AclEntry acl : state.acls()) {
            s.acls.add(AclRecord.of(acl));
        }
        for (ScramCredentialEntry e : state.scramCredentials().all()) {
            s.scramCredentials.add(ScramRecord.of(e));
        }
        s.shuttingDownBrokers = state.shuttingDownBrokers();
        return s;
    }

    /** The state a decoded snapshot describes. */
    static ClusterState read(SnapshotRecord s) {
        if (s.brokers == null
                || s.topics == null
                || s.brokerConfigs == null
                || s.acls == null
                || s.scramCredentials == null
                || s.shuttingDownBrokers == null) {
            throw new MalformedInputException("snapshot at " + s.lastDeltaSeq + ": a null list");
        }
        List<BrokerInfo> b = new ArrayList<>(s.brokers.size());
        for (Object r : s.brokers) {
            b.add(DecodedElements.element(BrokerRecord.class, r, "snapshot brokers")
                    .toInfo());
        }
        List<TopicState> t = new ArrayList<>(s.topics.size());
        for (Object r : s.topics) {
            t.add(DecodedElements.element(TopicRecord.class, r, "snapshot topics")
                    .toTopic());
        }
        Map<Integer, Map<String, String>> configs = new TreeMap<>();
        Map<String, Map<String, String>> quotas = null;
        for (Object o : s.brokerConfigs) {
            ConfigRecord c = DecodedElements.configChange(o, s.lastDeltaSeq);
            if (c.entityType == ConfigRecord.CLIENT_QUOTAS) {
                if (quotas != null) {
                    throw new MalformedInputException("snapshot at " + s.lastDeltaSeq + ": two client quota tables");
                }
                quotas = c.clientQuotaConfigs();
                continue;
            }
            if (c.entityType != ConfigRecord.BROKER) {
                throw new MalformedInputException(
                        "snapshot at " + s.lastDeltaSeq + ": a topic config among the " + "broker configs");
            }
            if (configs.put(c.brokerId, c.configs()) != null) {
                throw new MalformedInputException(
                        "snapshot at " + s.lastDeltaSeq + ": broker " + c.brokerId + " has two configs");
            }
        }
        List<AclEntry> acls = new ArrayList<>(s.acls.size());
        for (Object r : s.acls) {
            acls.add(
                    DecodedElements.element(AclRecord.class, r, "snapshot acls").toEntry());
        }
        List<ScramCredentialEntry> scram = new ArrayList<>(s.scramCredentials.size());
        for (Object r : s.scramCredentials) {
            scram.add(ScramCredentials.record(r, "snapshot scramCredentials").toEntry());
        }
        ClusterState state = ClusterState.of(s.controllerEpoch, s.lastDeltaSeq, b, t, configs, acls, scram);
        if (s.shuttingDownBrokers.length > 0) {
            state = state.withShuttingDown(s.shuttingDownBrokers);
        }
        return quotas == null ? state : state.withClientQuotaConfigs(quotas);
    }
}
