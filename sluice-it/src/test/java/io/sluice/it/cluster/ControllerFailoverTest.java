package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.testkit.Poll;
import io.sluice.testkit.cluster.ControllerRecord;
import io.sluice.testkit.cluster.ProcessCluster;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of the controller's process in a three-broker cluster: another broker becomes controller with a higher
 * epoch within the session timeout, the cluster state survives (the topic and all its partitions; the dead broker's
 * partitions offline), produce and consume go on where the leader lives, and the killed broker, restarted on its data,
 * gets its partitions and their records back.
 */
class ControllerFailoverTest extends ClusterTestBase {
    private static final String TOPIC = "failover";
    private static final int PARTITIONS = 12;
    private static final int RECORDS_BEFORE = 6_000;
    private static final int RECORDS_AFTER = 3_000;

    @Test
    void shouldElectNewControllerKeepStateAndServeLivePartitionsAfterKill9() throws Exception {
        List<Integer> all = partitionNumbers(PARTITIONS);
        createTopicWithLeaders(TOPIC, PARTITIONS);
        Map<String, KeyedRecords.Expected> before = produce(TOPIC, all, RECORDS_BEFORE, "before");
        ClusterState stateBefore = cluster.probe().state();
        TopicState topicBefore = stateBefore.topic(TOPIC);
        ControllerRecord old = cluster.probe().controller();
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            Node described =
                    admin.describeCluster().controller().get(ClusterClients.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            assertEquals(old.brokerId(), described.id(), "describeCluster and /controller_epoch agree");
        }
        int victim = old.brokerId();
        List<Integer> victimPartitions = ledBy(topicBefore, victim);
        List<Integer> livePartitions =
                all.stream().filter(p -> !victimPartitions.contains(p)).toList();
        assertFalse(victimPartitions.isEmpty(), "the controller leads some partitions: " + topicBefore);

        cluster.broker(victim).kill9();

        ControllerRecord successor = cluster.probe()
                .awaitController(
                        "a new controller after broker " + victim + " was killed (session timeout "
                                + cluster.sessionTimeout() + ")",
                        cluster.sessionTimeout().plus(ProcessCluster.ELECTION_SLACK),
                        c -> c.brokerId() != victim && c.epoch() > old.epoch());
        assertTrue(cluster.brokerIds().contains(successor.brokerId()), "successor " + successor);
        ClusterState afterKill = cluster.probe()
                .awaitState(
                        "broker " + victim + " removed and its partitions offline",
                        SETTLE,
                        s -> !s.hasBroker(victim) && offline(s.topic(TOPIC)).equals(victimPartitions));
        assertIntactExceptOffline(topicBefore, afterKill.topic(TOPIC), victimPartitions);
        assertEquals(successor.epoch(), afterKill.controllerEpoch(), "state published by the new controller");

        String live = cluster.bootstrap();
        assertOfflineInMetadata(live.split(",")[0], victimPartitions, livePartitions, topicBefore);
        try (Admin admin = ClusterClients.admin(live)) {
            Node described = Poll.until(
                    "describeCluster names the new controller",
                    SETTLE,
                    () -> admin.describeCluster()
                            .controller()
                            .get(ClusterClients.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS),
                    n -> n != null && n.id() == successor.brokerId());
            assertEquals(successor.brokerId(), described.id());
            Map<Integer, Integer> leaders = Poll.until(
                    "describeTopics reports broker " + victim + "'s partitions offline",
                    SETTLE,
                    () -> ClusterClients.leaders(admin, TOPIC),
                    l -> l.size() == PARTITIONS
                            && victimPartitions.stream().allMatch(p -> l.get(p) == ClusterClients.NO_LEADER));
            for (int p : livePartitions) {
                assertEquals(topicBefore.partition(p).leader(), leaders.get(p), "leader of live partition " + p);
            }
        }

        Map<String, KeyedRecords.Expected> after = produce(TOPIC, livePartitions, RECORDS_AFTER, "after");
        Map<String, KeyedRecords.Expected> onLive = new HashMap<>(after);
        before.forEach((key, e) -> {
            if (livePartitions.contains(e.partition())) {
                onLive.put(key, e);
            }
        });
        try (KafkaConsumer<String, String> consumer = ClusterClients.assignConsumer(live)) {
            KeyedRecords.assertExactlyOnce(
                    onLive, KeyedRecords.readAll(consumer, KeyedRecords.partitions(TOPIC, livePartitions), SETTLE));
        }

        cluster.broker(victim).restart();
        ClusterState back = cluster.probe()
                .awaitState(
                        "broker " + victim + " back and leading its partitions again",
                        SETTLE,
                        s -> s.hasBroker(victim)
                                && offline(s.topic(TOPIC)).isEmpty()
                                && ledBy(s.topic(TOPIC), victim).equals(victimPartitions));
        assertEquals(topicBefore.id(), back.topic(TOPIC).id(), "same topic id after the restart");
        Map<String, KeyedRecords.Expected> everything = new HashMap<>(before);
        everything.putAll(after);
        try (KafkaConsumer<String, String> consumer = ClusterClients.assignConsumer(cluster.bootstrap())) {
            KeyedRecords.assertExactlyOnce(
                    everything, KeyedRecords.readAll(consumer, KeyedRecords.partitions(TOPIC, all), SETTLE));
        }
    }

    /** A live broker's own Metadata answer: the dead leader's partitions LEADER_NOT_AVAILABLE with leader -1. */
    private static void assertOfflineInMetadata(
            String broker, List<Integer> offline, List<Integer> live, TopicState topicBefore) throws Exception {
        MetadataResponseTopic topic = Poll.until(
                "broker " + broker + " reports the offline partitions",
                SETTLE,
                () -> OneRequest.metadata(broker, TOPIC),
                t -> t != null
                        && t.partitions().stream()
                                        .filter(p -> p.leaderId() == PartitionState.NO_LEADER)
                                        .count()
                                == offline.size());
        assertEquals(Errors.NONE.code(), topic.errorCode(), "topic error code");
        assertEquals(PARTITIONS, topic.partitions().size(), "partitions in Metadata");
        for (MetadataResponsePartition p : topic.partitions()) {
            if (offline.contains(p.partitionIndex())) {
                assertEquals(Errors.LEADER_NOT_AVAILABLE.code(), p.errorCode(), "error of offline partition " + p);
                assertEquals(PartitionState.NO_LEADER, p.leaderId(), "leader of offline partition " + p);
            } else {
                assertTrue(live.contains(p.partitionIndex()), "partition " + p);
                assertEquals(Errors.NONE.code(), p.errorCode(), "error of live partition " + p);
                assertEquals(topicBefore.partition(p.partitionIndex()).leader(), p.leaderId(), "leader of " + p);
            }
        }
    }

    /** Same topic, same partitions and replicas; only the {@code offline} partitions lost their leader. */
    private static void assertIntactExceptOffline(TopicState before, TopicState after, List<Integer> offline) {
        assertEquals(before.id(), after.id(), "topic id");
        assertEquals(PARTITIONS, after.partitionCount(), "partition count");
        for (int p = 0; p < PARTITIONS; p++) {
            PartitionState was = before.partition(p);
            PartitionState now = after.partition(p);
            assertTrue(Arrays.equals(was.replicas(), now.replicas()), "replicas of partition " + p);
            if (offline.contains(p)) {
                assertEquals(PartitionState.NO_LEADER, now.leader(), "offline partition " + p + ": " + now);
            } else {
                assertEquals(was, now, "partition " + p + " untouched");
            }
        }
        assertNotEquals(before, after, "the victim's partitions changed");
    }
}
