package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;

/**
 * Three brokers in their own JVMs around one ZooKeeper: a 12-partition topic is spread over all of them and the Java
 * clients (Admin, idempotent producer, {@code assign()} consumer) produce and read back every record, following the
 * metadata to each partition's leader.
 */
class ThreeBrokerClusterTest extends ClusterTestBase {
    private static final String TOPIC = "spread";
    private static final int PARTITIONS = 12;
    private static final int RECORDS = 30_000;
    private static final Set<Integer> BROKER_IDS = Set.of(1, 2, 3);

    @Test
    void shouldProduceAndConsumeEveryRecordAcrossAllBrokers() throws Exception {
        List<Integer> all = partitionNumbers(PARTITIONS);
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            DescribeClusterResult described = admin.describeCluster();
            Collection<Node> nodes = described.nodes().get(ClusterClients.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            assertEquals(BROKER_IDS, nodes.stream().map(Node::id).collect(Collectors.toSet()), "describeCluster nodes");
            Node controller = described.controller().get(ClusterClients.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            assertNotNull(controller, "describeCluster names a controller");
            assertTrue(BROKER_IDS.contains(controller.id()), "controller " + controller + " is one of " + BROKER_IDS);
        }
        Map<Integer, Integer> leaders = createTopicWithLeaders(TOPIC, PARTITIONS);
        assertEquals(BROKER_IDS, new TreeSet<>(leaders.values()), "leaders spread over all brokers: " + leaders);
        for (int id : BROKER_IDS) {
            assertEquals(
                    PARTITIONS / BROKERS,
                    leaders.values().stream().filter(leader -> leader == id).count(),
                    "partitions led by broker " + id + ": " + leaders);
        }

        Map<String, KeyedRecords.Expected> sent = produce(TOPIC, all, RECORDS, "r");
        try (KafkaConsumer<String, String> consumer = ClusterClients.assignConsumer(cluster.bootstrap())) {
            KeyedRecords.assertExactlyOnce(
                    sent, KeyedRecords.readAll(consumer, KeyedRecords.partitions(TOPIC, all), SETTLE));
        }
        Set<Integer> leadersInState = new HashSet<>();
        for (int p = 0; p < PARTITIONS; p++) {
            leadersInState.add(cluster.probe().state().topic(TOPIC).partition(p).leader());
        }
        assertEquals(BROKER_IDS, leadersInState, "the cluster state in ZooKeeper agrees with the metadata");
        awaitEveryBrokerServesTheProbedState(TOPIC);
    }
}
