package io.sluice.cli.cluster;

import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.status.ClusterStatus;
import io.sluice.codec.endpoint.Endpoint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The text of {@code sluice cluster status}: one record per line, each line starting with its kind, fields as
 * {@code Name: value} separated by tabs (like {@code kafka-topics --describe}), so {@code grep '^Broker:'} or
 * {@code cut -f} pick what they need. Brokers ascend by id, offline partitions by topic name then partition.
 *
 * <pre>
 * ClusterId: ID|-
 * Controller: ID|none \t Epoch: N \t Registered: yes|no
 * StateSeq: N \t PublishedSeq: N
 * Topics: N \t Partitions: N \t OfflinePartitions: N \t UnderReplicatedPartitions: N \t LiveBrokers: N \t ReassigningPartitions: N
 * Broker: ID \t Endpoint: HOST:PORT|- \t Rack: RACK|- \t Live: yes|no \t Registered: yes|no \t Leads: N \t Hosts: N
 * OfflinePartition: TOPIC-PARTITION \t Replicas: ID,ID...
 * UnderReplicatedPartition: TOPIC-PARTITION \t Leader: ID \t Replicas: ID,ID... \t Isr: ID,ID...
 * ReassigningPartition: TOPIC-PARTITION \t Leader: ID \t Replicas: ID,ID... \t Adding: ID,... \t Removing: ID,... \t Isr: ID,ID...
 *     [\t Phase: copying|catch-up|switching \t Shipped: S/T MB \t Progress: N% \t Rate: R MB/s|- \t Eta: Ns|-]
 * </pre>
 *
 * {@code Live} is the controller's published view, {@code Registered} whether the broker holds a ZooKeeper session
 * now; they differ while the controller catches up, or when no controller runs. A broker is listed when it is live,
 * registered or holds a replica. A partition is under-replicated when it has a leader and fewer in-sync replicas than
 * replicas not being added by a reassignment (Kafka's definition, as {@code kafka-topics --under-replicated-partitions}
 * lists them); a partition under reassignment (KIP-455) is listed with its adding and removing replicas and, when
 * the brokers could be asked, its move's progress as {@code sluice partition moves} reads it. Stateless;
 * thread-safe.
 */
public final class ClusterStatusFormat {
    /** Shown for a value that is absent (no cluster id, no rack, no endpoint). */
    public static final String ABSENT = "-";

    private ClusterStatusFormat() {}

    public static List<String> lines(ClusterStatus status) {
        return lines(status, Map.of());
    }

    /**
     * @param moveFields per partition under reassignment ({@code TOPIC-PARTITION}), the progress fields appended to
     *                   its {@code ReassigningPartition} line (phase, bytes shipped of total, rate, ETA)
     */
    public static List<String> lines(ClusterStatus status, Map<String, String> moveFields) {
        ClusterState state = status.state();
        List<TopicState> topics = new ArrayList<>(state.topicsById().values());
        topics.sort(Comparator.comparing(TopicState::name));
        Map<Integer, int[]> leadsAndHosts = new TreeMap<>();
        for (Integer live : state.brokers().keySet()) {
            leadsAndHosts.put(live, new int[2]);
        }
        for (Integer registered : status.registered()) {
            leadsAndHosts.putIfAbsent(registered, new int[2]);
        }
        List<String> offline = new ArrayList<>();
        List<String> underReplicated = new ArrayList<>();
        List<String> reassigning = new ArrayList<>();
        int partitions = 0;
        for (TopicState topic : topics) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                PartitionState partition = topic.partition(p);
                partitions++;
                if (partition.isOffline()) {
                    offline.add(
                            "OfflinePartition: " + topic.name() + "-" + p + "\tReplicas: " + ids(partition.replicas()));
                } else {
                    leadsAndHosts.computeIfAbsent(partition.leader(), id -> new int[2])[0]++;
                    if (partition.isr().length < partition.replicas().length - partition.addingReplicas().length) {
                        underReplicated.add("UnderReplicatedPartition: " + topic.name() + "-" + p
                                + "\tLeader: " + partition.leader() + "\tReplicas: " + ids(partition.replicas())
                                + "\tIsr: " + ids(partition.isr()));
                    }
                }
                if (partition.isReassigning()) {
                    String progress = moveFields.get(topic.name() + "-" + p);
                    reassigning.add("ReassigningPartition: " + topic.name() + "-" + p + "\tLeader: "
                            + partition.leader() + "\tReplicas: " + ids(partition.replicas()) + "\tAdding: "
                            + ids(partition.addingReplicas()) + "\tRemoving: " + ids(partition.removingReplicas())
                            + "\tIsr: " + ids(partition.isr()) + (progress == null ? "" : "\t" + progress));
                }
                for (int replica : partition.replicas()) {
                    leadsAndHosts.computeIfAbsent(replica, id -> new int[2])[1]++;
                }
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add("ClusterId: " + (status.clusterId() == null ? ABSENT : status.clusterId()));
        lines.add(
                status.hasController()
                        ? "Controller: " + status.controllerId() + "\tEpoch: " + status.controllerEpoch()
                                + "\tRegistered: " + yesNo(status.registered().contains(status.controllerId()))
                        : "Controller: none\tEpoch: " + status.controllerEpoch() + "\tRegistered: no");
        lines.add("StateSeq: " + state.appliedSeq() + "\tPublishedSeq: " + status.publishedSeq());
        lines.add("Topics: " + topics.size() + "\tPartitions: " + partitions + "\tOfflinePartitions: " + offline.size()
                + "\tUnderReplicatedPartitions: " + underReplicated.size() + "\tLiveBrokers: "
                + state.brokers().size()
                + "\tReassigningPartitions: " + reassigning.size());
        for (Map.Entry<Integer, int[]> entry : leadsAndHosts.entrySet()) {
            int id = entry.getKey();
            lines.add(
                    brokerLine(id, state.brokers().get(id), status.registered().contains(id), entry.getValue()));
        }
        lines.addAll(offline);
        lines.addAll(underReplicated);
        lines.addAll(reassigning);
        return lines;
    }

    private static String brokerLine(int id, BrokerInfo live, boolean registered, int[] leadsAndHosts) {
        Endpoint endpoint = live == null ? null : live.primaryEndpoint();
        String rack = live == null || !live.hasRack() ? ABSENT : live.rack();
        return "Broker: " + id + "\tEndpoint: " + (endpoint == null ? ABSENT : endpoint.toString())
                + "\tRack: " + rack + "\tLive: " + yesNo(live != null) + "\tRegistered: " + yesNo(registered)
                + "\tLeads: " + leadsAndHosts[0] + "\tHosts: " + leadsAndHosts[1];
    }

    private static String ids(int[] ids) {
        return Arrays.stream(ids).mapToObj(Integer::toString).collect(Collectors.joining(","));
    }

    private static String yesNo(boolean value) {
        return value ? "yes" : "no";
    }
}
