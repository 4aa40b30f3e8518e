package io.sluice.it.cluster;

import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.testkit.Poll;
import io.sluice.testkit.SluiceBrokerProcess;
import io.sluice.testkit.cluster.ClusterProbe;
import io.sluice.testkit.cluster.ProcessCluster;
import io.sluice.testkit.security.TestSecurity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the cluster tests share: a fresh three-broker {@link ProcessCluster} per test (its own ZooKeeper, chroot and
 * data, short session timeout), stopped after the test whatever happened, with the broker logs kept as
 * {@code target/broker-logs/<TestClass>-<testMethod>-broker-<id>.log}; and the steps every scenario starts with.
 *
 * <p>Not thread-safe; one instance per test, driven by the test thread.
 */
abstract class ClusterTestBase {
    static final int BROKERS = 3;
    /** Bound on every wait for the cluster or the clients to catch up; only a failure ever waits this long. */
    static final Duration SETTLE = Duration.ofSeconds(60);

    @TempDir
    Path work;

    ProcessCluster cluster;

    @BeforeEach
    void startCluster() throws Exception {
        // The overrides first: a secured test makes the certificates its client settings name there.
        List<String> overrides = brokerOverrides();
        cluster = ProcessCluster.start(
                work, BROKERS, sessionTimeout(), clientSecurity(), overrides.toArray(new String[0]));
    }

    /**
     * Broker settings for replication tests on this small machine: followers long-poll briefly, a follower that stops
     * fetching leaves the ISR after {@code lagTimeMs}, high watermarks are checkpointed often, a controlled shutdown
     * retries soon, and leadership moves only when a test moves it.
     */
    static List<String> replicationSettings(int lagTimeMs) {
        return List.of(
                "replica.lag.time.max.ms=" + lagTimeMs,
                "replica.fetch.wait.max.ms=200",
                "replica.high.watermark.checkpoint.interval.ms=500",
                "controlled.shutdown.retry.backoff.ms=500",
                "auto.leader.rebalance.enable=false");
    }

    /** Certificates and accounts made under the test's work directory, for the overrides of a secured cluster. */
    TestSecurity makeSecurity() {
        try {
            return TestSecurity.create(work.resolve("tls"));
        } catch (Exception e) {
            throw new IllegalStateException("could not make test certificates", e);
        }
    }

    /** The brokers' ZooKeeper session timeout: how long a stopped or paused broker stays registered. */
    Duration sessionTimeout() {
        return ProcessCluster.TEST_SESSION_TIMEOUT;
    }

    /** Settings ({@code key=value}) every broker of the test's cluster starts with. */
    List<String> brokerOverrides() {
        return List.of();
    }

    /**
     * Kafka client settings ({@code security.protocol}, {@code ssl.*}, {@code sasl.*}) for the brokers' bootstrap
     * listener, with which the cluster's start asks each broker whom it knows; called after {@link #brokerOverrides()}.
     */
    Map<String, String> clientSecurity() {
        return Map.of();
    }

    @AfterEach
    void stopCluster(TestInfo test) {
        if (cluster != null) {
            cluster.close();
            cluster.keepLogs(
                    ClusterClients.KEPT_LOGS,
                    getClass().getSimpleName()
                            + test.getTestMethod().map(m -> "-" + m.getName()).orElse(""));
        }
    }

    /** Creates {@code topic} (replication factor 1) and waits until the Admin client sees a leader for each partition. */
    Map<Integer, Integer> createTopicWithLeaders(String topic, int partitions) throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            ClusterClients.createTopic(admin, topic, partitions);
            return Poll.until(
                    "every partition of " + topic + " has a leader",
                    SETTLE,
                    () -> ClusterClients.leaders(admin, topic),
                    l -> l.size() == partitions && !l.containsValue(ClusterClients.NO_LEADER));
        }
    }

    /** Sends {@code count} records over {@code partitions} with a fresh idempotent producer on the live brokers. */
    Map<String, KeyedRecords.Expected> produce(String topic, List<Integer> partitions, int count, String tag)
            throws Exception {
        try (KafkaProducer<String, String> producer = ClusterClients.idempotentProducer(cluster.bootstrap())) {
            return KeyedRecords.produce(producer, topic, partitions, count, tag);
        }
    }

    /**
     * Waits until every broker that runs and is not paused answers Metadata for {@code topic} with the leaders of the
     * cluster state the test's probe follows: each broker applied the same published state.
     */
    void awaitEveryBrokerServesTheProbedState(String topic) throws Exception {
        ClusterProbe probe = cluster.probe();
        for (int id : cluster.brokerIds()) {
            SluiceBrokerProcess broker = cluster.broker(id);
            if (!broker.isAlive() || broker.isPaused()) {
                continue;
            }
            Poll.until(
                    "broker " + id + " answers Metadata for " + topic + " with the leaders in the cluster state",
                    SETTLE,
                    () -> new Leaders(metadataLeaders(broker.bootstrap(), topic), stateLeaders(probe, topic)),
                    Leaders::agree);
        }
    }

    /** Partition leaders in index order, as one broker answers and as the cluster state says. */
    private record Leaders(List<Integer> brokerSays, List<Integer> stateSays) {
        boolean agree() {
            return brokerSays.equals(stateSays);
        }
    }

    private static List<Integer> metadataLeaders(String bootstrap, String topic) throws Exception {
        MetadataResponseTopic answer = OneRequest.metadata(bootstrap, topic);
        if (answer == null) {
            return List.of();
        }
        Integer[] leaders = new Integer[answer.partitions().size()];
        for (MetadataResponsePartition p : answer.partitions()) {
            if (p.partitionIndex() >= 0 && p.partitionIndex() < leaders.length) {
                leaders[p.partitionIndex()] = p.leaderId();
            }
        }
        return Arrays.asList(leaders);
    }

    private static List<Integer> stateLeaders(ClusterProbe probe, String topic) {
        TopicState state = probe.state().topic(topic);
        return state == null
                ? List.of()
                : IntStream.range(0, state.partitionCount())
                        .mapToObj(p -> state.partition(p).leader())
                        .toList();
    }

    static List<Integer> partitionNumbers(int count) {
        return IntStream.range(0, count).boxed().toList();
    }

    /** Partitions of {@code topic} led by {@code brokerId}, ascending. */
    static List<Integer> ledBy(TopicState topic, int brokerId) {
        return IntStream.range(0, topic.partitionCount())
                .filter(p -> topic.partition(p).leader() == brokerId)
                .boxed()
                .toList();
    }

    /** Partitions of {@code topic} without a leader, ascending. */
    static List<Integer> offline(TopicState topic) {
        return ledBy(topic, PartitionState.NO_LEADER);
    }
}
