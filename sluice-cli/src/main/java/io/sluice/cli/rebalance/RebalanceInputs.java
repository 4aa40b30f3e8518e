package io.sluice.cli.rebalance;

import io.sluice.cluster.assign.RebalancePlanner.Broker;
import io.sluice.cluster.assign.RebalancePlanner.PartitionReplicas;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * What a rebalance plan starts from, read through Kafka's Admin API: the live brokers with their racks
 * (DescribeCluster), every topic's replicas, internal ones included (Metadata), and each partition's size, the
 * largest copy any broker reports (DescribeLogDirs).
 *
 * @param brokers    live brokers, by id
 * @param partitions every partition, topics and partitions in order
 */
record RebalanceInputs(List<Broker> brokers, List<PartitionReplicas> partitions) {

    static RebalanceInputs read(Admin admin) throws ExecutionException, InterruptedException {
        Collection<Node> nodes = admin.describeCluster().nodes().get();
        List<Broker> brokers = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        for (Node n : nodes) {
            brokers.add(new Broker(n.id(), n.hasRack() ? n.rack() : ""));
            ids.add(n.id());
        }
        Map<TopicPartition, Long> sizes = sizes(admin, ids);
        Collection<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true))
                .names()
                .get();
        Map<String, TopicDescription> topics =
                new TreeMap<>(admin.describeTopics(names).allTopicNames().get());
        List<PartitionReplicas> partitions = new ArrayList<>();
        for (TopicDescription topic : topics.values()) {
            for (TopicPartitionInfo p : topic.partitions()) {
                int[] replicas = p.replicas().stream().mapToInt(Node::id).toArray();
                long size = sizes.getOrDefault(new TopicPartition(topic.name(), p.partition()), 0L);
                partitions.add(new PartitionReplicas(topic.name(), p.partition(), replicas, size));
            }
        }
        return new RebalanceInputs(brokers, partitions);
    }

    private static Map<TopicPartition, Long> sizes(Admin admin, List<Integer> brokers)
            throws ExecutionException, InterruptedException {
        Map<TopicPartition, Long> sizes = new HashMap<>();
        Map<Integer, Map<String, LogDirDescription>> dirs =
                admin.describeLogDirs(brokers).allDescriptions().get();
        for (Map<String, LogDirDescription> byDir : dirs.values()) {
            for (LogDirDescription dir : byDir.values()) {
                for (Map.Entry<TopicPartition, ReplicaInfo> e :
                        dir.replicaInfos().entrySet()) {
                    sizes.merge(e.getKey(), e.getValue().size(), Math::max);
                }
            }
        }
        return sizes;
    }
}
