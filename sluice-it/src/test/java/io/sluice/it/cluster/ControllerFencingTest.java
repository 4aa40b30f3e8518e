package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.TopicState;
import io.sluice.testkit.Poll;
import io.sluice.testkit.SluiceBrokerProcess;
import io.sluice.testkit.cluster.ControllerRecord;
import io.sluice.testkit.cluster.ProcessCluster;
import io.sluice.testkit.cluster.StateZnode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/**
 * The controller's process frozen (SIGSTOP) past its ZooKeeper session: another broker is elected with a higher
 * epoch; when the old one resumes, nothing it writes lands in ZooKeeper (every state znode written after the
 * election carries the new epoch, and a follower never sees a stale change), it rejoins as an ordinary broker, and
 * the cluster keeps serving produce, fetch and topic creation.
 */
class ControllerFencingTest extends ClusterTestBase {
    private static final String TOPIC = "fenced";
    private static final String PROBE_TOPIC = "sent-to-the-old-controller";
    private static final String NEW_TOPIC = "after-fencing";
    private static final int PARTITIONS = 12;
    private static final int NEW_TOPIC_PARTITIONS = 3;
    private static final int RECORDS_BEFORE = 3_000;
    private static final int RECORDS_AFTER = 3_000;
    private static final String ACTIVE_CONTROLLER_COUNT = "kafka_controller_kafkacontroller_activecontrollercount";

    @Override
    List<String> brokerOverrides() {
        return List.of("sluice.http.listener=0");
    }

    @Test
    void shouldFenceAPausedControllerAndKeepServingAfterItResumes() throws Exception {
        List<Integer> all = partitionNumbers(PARTITIONS);
        createTopicWithLeaders(TOPIC, PARTITIONS);
        Map<String, KeyedRecords.Expected> before = produce(TOPIC, all, RECORDS_BEFORE, "before");
        TopicState topicBefore = cluster.probe().state().topic(TOPIC);
        ControllerRecord old = cluster.probe().controller();
        int paused = old.brokerId();
        List<Integer> pausedPartitions = ledBy(topicBefore, paused);
        SluiceBrokerProcess oldController = cluster.broker(paused);

        ControllerRecord successor;
        List<StateZnode> beforeResume;
        oldController.pause();
        try {
            successor = cluster.probe()
                    .awaitController(
                            "a new controller while broker " + paused + " is paused",
                            cluster.sessionTimeout().plus(ProcessCluster.ELECTION_SLACK),
                            c -> c.brokerId() != paused && c.epoch() > old.epoch());
            cluster.probe()
                    .awaitState(
                            "paused broker " + paused + " removed, its partitions offline",
                            SETTLE,
                            s -> s.controllerEpoch() == successor.epoch()
                                    && !s.hasBroker(paused)
                                    && offline(s.topic(TOPIC)).equals(pausedPartitions));
            beforeResume = cluster.probe().stateZnodes();
        } finally {
            oldController.resume();
        }
        // Straight after SIGCONT, before its client notices the lost session, the old controller is asked to write.
        CreatableTopicResult sentToOld = OneRequest.createTopic(oldController.bootstrap(), PROBE_TOPIC, 1);
        assertTrue(
                sentToOld.errorCode() == Errors.NOT_CONTROLLER.code()
                        || sentToOld.errorCode() == Errors.REQUEST_TIMED_OUT.code(),
                "a fenced controller creates no topic and sends the client to the controller: " + sentToOld);

        ClusterState rejoined = cluster.probe()
                .awaitState(
                        "broker " + paused + " re-registered and leading its " + "partitions again",
                        SETTLE,
                        s -> s.hasBroker(paused)
                                && ledBy(s.topic(TOPIC), paused).equals(pausedPartitions));
        // The resumed broker stops acting as controller on its controller thread, after every write it had queued
        // there (each fenced by the epoch version check); from then on each write it tries fails as fenced. So once it
        // reports ActiveControllerCount 0, whatever it could have written has reached ZooKeeper or never will.
        String resumedHttp = BrokerHttp.base(rejoined, paused);
        Poll.until(
                "broker " + paused + " no longer acts as controller",
                SETTLE,
                () -> BrokerHttp.metric(resumedHttp, ACTIVE_CONTROLLER_COUNT),
                count -> count == 0);

        assertEquals(successor, cluster.probe().controller(), "the successor still holds the epoch");
        assertTrue(cluster.probe().isRegistered(paused), "broker " + paused + " registered again");
        for (StateZnode znode : cluster.probe().stateZnodes()) {
            if (znode.writtenAfter(successor.modifiedZxid())) {
                assertEquals(
                        successor.epoch(),
                        znode.controllerEpoch(),
                        "written after the election of epoch " + successor.epoch() + ": " + znode + "; before resume: "
                                + beforeResume);
            } else {
                assertTrue(znode.controllerEpoch() <= old.epoch(), "written before the election: " + znode);
            }
        }
        ClusterState state = cluster.probe().state();
        assertEquals(successor.epoch(), state.controllerEpoch(), "epoch of the newest state change: " + state);
        assertEquals(0, cluster.probe().follower().rejected(), "stale-epoch changes seen by a follower");
        assertNull(cluster.probe().follower().lastError(), "follower error");
        assertNull(state.topic(PROBE_TOPIC), "topic sent to the fenced controller: " + state.topic(PROBE_TOPIC));
        assertEquals(topicBefore.id(), rejoined.topic(TOPIC).id(), "topic id");
        awaitEveryBrokerServesTheProbedState(TOPIC);

        try (Admin admin = ClusterClients.admin(oldController.bootstrap())) {
            int described = Poll.until(
                    "the resumed broker names the new controller",
                    SETTLE,
                    () -> admin.describeCluster()
                            .controller()
                            .get(ClusterClients.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                            .id(),
                    id -> id == successor.brokerId());
            assertEquals(successor.brokerId(), described);
            ClusterClients.createTopic(admin, NEW_TOPIC, NEW_TOPIC_PARTITIONS);
        }
        TopicState created = cluster.probe()
                .awaitState(
                        NEW_TOPIC + " published with leaders",
                        SETTLE,
                        s -> s.topic(NEW_TOPIC) != null
                                && offline(s.topic(NEW_TOPIC)).isEmpty())
                .topic(NEW_TOPIC);
        assertEquals(NEW_TOPIC_PARTITIONS, created.partitionCount(), "partitions of " + NEW_TOPIC);
        assertEquals(successor.epoch(), cluster.probe().state().controllerEpoch(), "created under the new epoch");

        Map<String, KeyedRecords.Expected> after = produce(TOPIC, all, RECORDS_AFTER, "after");
        Map<String, KeyedRecords.Expected> everything = new HashMap<>(before);
        everything.putAll(after);
        try (KafkaConsumer<String, String> consumer = ClusterClients.assignConsumer(cluster.bootstrap())) {
            KeyedRecords.assertExactlyOnce(
                    everything, KeyedRecords.readAll(consumer, KeyedRecords.partitions(TOPIC, all), SETTLE));
        }
    }
}
