package io.sluice.broker.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.broker.cluster.ClusterMembership;
import io.sluice.broker.move.TransferProgress;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.codec.endpoint.Endpoint;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * The cluster as this broker's newest cluster state shows it, written as the status endpoints' JSON:
 * {@code /api/cluster} (brokers, controller, ZooKeeper), {@code /api/topics} (partitions, leaders, ISR, flags) and
 * {@code /api/moves} (reassignments in progress, with the transfers this broker receives). docs/status-page.md
 * describes every field.
 *
 * <p>Thread-safe: stateless; cluster states are immutable.
 */
final class ClusterJson {
    private final ClusterMembership membership;
    private final BiFunction<String, Integer, TransferProgress> transfers;

    /** @param transfers the progress of a partition's file transfer into this broker, or null */
    ClusterJson(ClusterMembership membership, BiFunction<String, Integer, TransferProgress> transfers) {
        this.membership = membership;
        this.transfers = transfers;
    }

    /** The newest cluster state; empty before this broker joined. */
    ClusterState state() {
        ClusterNode node = membership.node();
        return node == null ? ClusterState.EMPTY : node.current();
    }

    /** A broker's registered HTTP listener, or null when it has none. */
    static Endpoint httpEndpoint(BrokerInfo broker) {
        int index = broker.listenerNames().indexOf(ClusterMembership.HTTP_LISTENER_NAME);
        return index < 0 ? null : broker.endpoints().get(index);
    }

    void writeCluster(JsonGenerator json) throws IOException {
        ClusterState state = state();
        ClusterNode node = membership.node();
        json.writeStartObject();
        json.writeStringField("clusterId", membership.clusterId());
        json.writeNumberField(
                "brokerId", membership.self() == null ? -1 : membership.self().id());
        json.writeObjectFieldStart("controller");
        json.writeNumberField("id", node == null ? -1 : node.controllerId());
        json.writeNumberField("epoch", state.controllerEpoch());
        json.writeEndObject();
        json.writeObjectFieldStart("zookeeper");
        json.writeStringField("state", membership.isZooKeeperConnected() ? "CONNECTED" : "DISCONNECTED");
        json.writeBooleanField("embedded", membership.isEmbedded());
        json.writeEndObject();
        json.writeArrayFieldStart("brokers");
        for (BrokerInfo broker : state.brokers().values()) {
            Endpoint kafka = broker.primaryEndpoint();
            Endpoint http = httpEndpoint(broker);
            json.writeStartObject();
            json.writeNumberField("id", broker.id());
            json.writeBooleanField("live", true);
            writeNullableString(json, "rack", broker.hasRack() ? broker.rack() : null);
            writeNullableString(json, "kafka", kafka == null ? null : kafka.host() + ":" + kafka.port());
            writeNullableString(
                    json, "http", http == null ? null : "http://" + hostForUrl(http.host()) + ":" + http.port());
            json.writeEndObject();
        }
        for (int id : replicasNotLive(state)) {
            json.writeStartObject();
            json.writeNumberField("id", id);
            json.writeBooleanField("live", false);
            json.writeEndObject();
        }
        json.writeEndArray();
        writeSummary(json, state);
        json.writeEndObject();
    }

    /** Brokers named in a replica set that are not registered now (stopped, crashed, partitioned away). */
    private static TreeSet<Integer> replicasNotLive(ClusterState state) {
        TreeSet<Integer> missing = new TreeSet<>();
        for (TopicState topic : state.topicsById().values()) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                for (int replica : topic.partition(p).replicas()) {
                    if (!state.hasBroker(replica)) {
                        missing.add(replica);
                    }
                }
            }
        }
        return missing;
    }

    private static void writeSummary(JsonGenerator json, ClusterState state) throws IOException {
        int partitions = 0;
        int underReplicated = 0;
        int offline = 0;
        int reassigning = 0;
        for (TopicState topic : state.topicsById().values()) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                PartitionState ps = topic.partition(p);
                partitions++;
                underReplicated += isUnderReplicated(ps) ? 1 : 0;
                offline += ps.isOffline() ? 1 : 0;
                reassigning += ps.isReassigning() ? 1 : 0;
            }
        }
        json.writeObjectFieldStart("summary");
        json.writeNumberField("topics", state.topicsById().size());
        json.writeNumberField("partitions", partitions);
        json.writeNumberField("underReplicated", underReplicated);
        json.writeNumberField("offline", offline);
        json.writeNumberField("reassigning", reassigning);
        json.writeEndObject();
    }

    /** Kafka's UnderReplicatedPartitions rule: fewer in sync than the replicas the partition keeps. */
    static boolean isUnderReplicated(PartitionState ps) {
        return !ps.isOffline() && ps.isr().length < ps.originalReplicas().length;
    }

    void writeTopics(JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeArrayFieldStart("topics");
        for (TopicState topic : byName(state())) {
            json.writeStartObject();
            json.writeStringField("name", topic.name());
            json.writeStringField("id", topic.id().toString());
            json.writeBooleanField("internal", topic.name().startsWith("__"));
            json.writeArrayFieldStart("partitions");
            for (int p = 0; p < topic.partitionCount(); p++) {
                PartitionState ps = topic.partition(p);
                json.writeStartObject();
                json.writeNumberField("partition", p);
                json.writeNumberField("leader", ps.leader());
                json.writeNumberField("leaderEpoch", ps.leaderEpoch());
                writeIds(json, "replicas", ps.replicas());
                writeIds(json, "isr", ps.isr());
                writeIds(json, "adding", ps.addingReplicas());
                writeIds(json, "removing", ps.removingReplicas());
                json.writeBooleanField("underReplicated", isUnderReplicated(ps));
                json.writeBooleanField("offline", ps.isOffline());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    /** Reassignments in progress; {@code transfers} holds only what this broker receives (the page merges brokers). */
    void writeMoves(JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeArrayFieldStart("moves");
        for (TopicState topic : byName(state())) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                PartitionState ps = topic.partition(p);
                if (!ps.isReassigning()) {
                    continue;
                }
                json.writeStartObject();
                json.writeStringField("topic", topic.name());
                json.writeNumberField("partition", p);
                json.writeNumberField("leader", ps.leader());
                writeIds(json, "replicas", ps.replicas());
                writeIds(json, "isr", ps.isr());
                writeIds(json, "adding", ps.addingReplicas());
                writeIds(json, "removing", ps.removingReplicas());
                json.writeArrayFieldStart("transfers");
                TransferProgress progress = transfers.apply(topic.name(), p);
                if (progress != null) {
                    writeTransfer(json, progress);
                }
                json.writeEndArray();
                json.writeEndObject();
            }
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private void writeTransfer(JsonGenerator json, TransferProgress progress) throws IOException {
        long total = progress.totalBytes();
        long done = progress.bytesVerified();
        double rate = progress.bytesPerSecond();
        json.writeStartObject();
        json.writeNumberField(
                "broker", membership.self() == null ? -1 : membership.self().id());
        json.writeStringField("phase", progress.phase().name());
        json.writeNumberField("bytesDone", done);
        json.writeNumberField("bytesTotal", total);
        json.writeNumberField("bytesPerSecond", rate);
        if (total >= 0 && rate > 0) {
            json.writeNumberField("etaSeconds", Math.max(0, total - done) / rate);
        } else {
            json.writeNullField("etaSeconds");
        }
        writeNullableString(json, "failure", progress.failure());
        json.writeEndObject();
    }

    private static List<TopicState> byName(ClusterState state) {
        List<TopicState> topics = new ArrayList<>(state.topicsById().values());
        topics.sort(Comparator.comparing(TopicState::name));
        return topics;
    }

    private static void writeIds(JsonGenerator json, String field, int[] ids) throws IOException {
        json.writeFieldName(field);
        json.writeArray(ids, 0, ids.length);
    }

    static void writeNullableString(JsonGenerator json, String field, String value) throws IOException {
        if (value == null) {
            json.writeNullField(field);
        } else {
            json.writeStringField(field, value);
        }
    }

    /** An IPv6 literal goes in brackets in a URL. */
    static String hostForUrl(String host) {
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    /** The HTTP base URL of every live broker that registered one, by broker id. */
    static Map<Integer, String> httpBases(ClusterState state) {
        Map<Integer, String> bases = new java.util.TreeMap<>();
        for (BrokerInfo broker : state.brokers().values()) {
            Endpoint http = httpEndpoint(broker);
            if (http != null) {
                bases.put(broker.id(), "http://" + hostForUrl(http.host()) + ":" + http.port());
            }
        }
        return bases;
    }
}
