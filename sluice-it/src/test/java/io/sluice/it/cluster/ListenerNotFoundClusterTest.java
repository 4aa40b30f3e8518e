package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.testkit.Poll;
import io.sluice.testkit.SluiceBrokerProcess;
import io.sluice.testkit.SluiceCliDistribution;
import io.sluice.testkit.cluster.ProcessCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponsePartition;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.DescribeTopicPartitionsRequest;
import org.apache.kafka.common.requests.DescribeTopicPartitionsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two brokers with different listener sets, as during a rolling change of listeners: broker 1 serves EXTERNAL and
 * INTERNAL, broker 2 only INTERNAL (the inter-broker listener). A client on broker 1's EXTERNAL listener asks for a
 * partition led by broker 2, live but unreachable there: Metadata v6+ answers LISTENER_NOT_FOUND with leader -1 (v5
 * and below LEADER_NOT_AVAILABLE; v0 also lists only reachable replicas), replicas and ISR in full, broker 2 among the
 * offline replicas; DescribeTopicPartitions answers leader -1 without an error, and the admin client sees no leader.
 * The same questions on INTERNAL name broker 2, as does a partition led by broker 1 on EXTERNAL.
 */
class ListenerNotFoundClusterTest {
    private static final Duration SETTLE = Duration.ofSeconds(60);
    private static final String ON_BROKER_2 = "led-by-internal-only";
    private static final String ON_BROKER_1 = "led-by-both";
    private static final String MAP = "listener.security.protocol.map=EXTERNAL:PLAINTEXT,INTERNAL:PLAINTEXT";
    private static final String INTER_BROKER = "inter.broker.listener.name=INTERNAL";

    @TempDir
    Path work;

    private ProcessCluster cluster;
    private SluiceBrokerProcess internalOnly;

    @BeforeEach
    void startBrokers() throws Exception {
        cluster = ProcessCluster.start(
                work,
                1,
                ProcessCluster.TEST_SESSION_TIMEOUT,
                "listeners=EXTERNAL://127.0.0.1:0,INTERNAL://127.0.0.1:0",
                MAP,
                INTER_BROKER);
        internalOnly = SluiceBrokerProcess.start(
                SluiceCliDistribution.fromEnvironment(),
                cluster.brokerDir(2),
                List.of(
                        "listeners=INTERNAL://127.0.0.1:0",
                        MAP,
                        INTER_BROKER,
                        "broker.id=2",
                        "zookeeper.connect=" + cluster.zookeeperConnect(),
                        "zookeeper.session.timeout.ms="
                                + cluster.sessionTimeout().toMillis()),
                ProcessCluster.BROKER_READY_TIMEOUT);
    }

    @AfterEach
    void stopBrokers(TestInfo test) {
        if (internalOnly != null) {
            internalOnly.stopAndClose();
        }
        if (cluster != null) {
            cluster.close();
            cluster.keepLogs(
                    ClusterClients.KEPT_LOGS,
                    getClass().getSimpleName()
                            + test.getTestMethod().map(m -> "-" + m.getName()).orElse(""));
        }
    }

    @Test
    void shouldAnswerListenerNotFoundForALeaderWithoutTheRequestsListener() throws Exception {
        ClusterState state = Poll.until(
                "both brokers registered", SETTLE, () -> cluster.probe().state(), s -> s.brokerCount() == 2);
        String external = endpoint(state.broker(1), "EXTERNAL");
        String internal = endpoint(state.broker(1), "INTERNAL");
        assertNull(state.broker(2).endpoint("EXTERNAL"), "broker 2 has no EXTERNAL listener");

        // Through INTERNAL, which every broker has, so that the admin client reaches whichever broker it needs.
        try (Admin admin = Admin.create(Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, internal))) {
            admin.createTopics(List.of(
                            new NewTopic(ON_BROKER_2, Map.of(0, List.of(2))),
                            new NewTopic(ON_BROKER_1, Map.of(0, List.of(1)))))
                    .all()
                    .get(60, TimeUnit.SECONDS);
        }
        Poll.until(
                "broker 1 names broker 2 as the leader on INTERNAL",
                SETTLE,
                () -> partition(metadata(internal, (short) 12), ON_BROKER_2),
                p -> p != null && p.leaderId() == 2);
        Poll.until(
                "broker 1 names itself as the leader of " + ON_BROKER_1 + " on EXTERNAL",
                SETTLE,
                () -> partition(metadata(external, (short) 12), ON_BROKER_1),
                p -> p != null && p.leaderId() == 1);

        MetadataResponse latest = metadata(external, (short) 12);
        assertEquals(
                List.of(1),
                latest.data().brokers().stream().map(b -> b.nodeId()).toList(),
                "only broker 1 has an EXTERNAL endpoint");
        MetadataResponsePartition missing = partition(latest, ON_BROKER_2);
        assertEquals(Errors.LISTENER_NOT_FOUND.code(), missing.errorCode());
        assertEquals(-1, missing.leaderId());
        assertEquals(List.of(2), missing.replicaNodes());
        assertEquals(List.of(2), missing.isrNodes());
        assertEquals(List.of(2), missing.offlineReplicas());
        assertEquals(Errors.NONE.code(), partition(latest, ON_BROKER_1).errorCode());

        MetadataResponsePartition v6 = partition(metadata(external, (short) 6), ON_BROKER_2);
        assertEquals(Errors.LISTENER_NOT_FOUND.code(), v6.errorCode());
        MetadataResponsePartition v5 = partition(metadata(external, (short) 5), ON_BROKER_2);
        assertEquals(Errors.LEADER_NOT_AVAILABLE.code(), v5.errorCode());
        assertEquals(-1, v5.leaderId());
        assertEquals(List.of(2), v5.replicaNodes());
        MetadataResponsePartition v0 = partition(metadata(external, (short) 0), ON_BROKER_2);
        assertEquals(Errors.LEADER_NOT_AVAILABLE.code(), v0.errorCode());
        assertEquals(List.of(), v0.replicaNodes(), "v0 lists only replicas reachable on the listener");
        assertEquals(List.of(), v0.isrNodes());

        DescribeTopicPartitionsResponse described = RawConnection.once(
                external,
                SETTLE,
                new DescribeTopicPartitionsRequest.Builder(new DescribeTopicPartitionsRequestData()
                        .setTopics(
                                List.of(new DescribeTopicPartitionsRequestData.TopicRequest().setName(ON_BROKER_2)))),
                ApiKeys.DESCRIBE_TOPIC_PARTITIONS,
                (short) 0);
        DescribeTopicPartitionsResponsePartition dtp =
                described.data().topics().find(ON_BROKER_2).partitions().get(0);
        assertEquals(Errors.NONE.code(), dtp.errorCode(), "as Kafka, DescribeTopicPartitions has no partition error");
        assertEquals(-1, dtp.leaderId());
        assertEquals(List.of(2), dtp.replicaNodes());
        assertEquals(List.of(2), dtp.offlineReplicas());

        try (Admin admin = Admin.create(Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, external))) {
            TopicDescription description = admin.describeTopics(List.of(ON_BROKER_2))
                    .allTopicNames()
                    .get(60, TimeUnit.SECONDS)
                    .get(ON_BROKER_2);
            TopicPartitionInfo info = description.partitions().get(0);
            assertNull(info.leader(), "the admin client on EXTERNAL sees no leader");
            assertEquals(List.of(2), info.replicas().stream().map(n -> n.id()).toList());
        }
    }

    private static String endpoint(BrokerInfo broker, String listener) {
        return broker.endpoint(listener).host() + ":"
                + broker.endpoint(listener).port();
    }

    /**
     * Metadata for both topics at {@code version}, built from the generated message class: kafka-clients 3.9's
     * builder refuses v0, which Sluice (like a Kafka 3.9 broker) still serves.
     */
    private static MetadataResponse metadata(String bootstrap, short version) throws Exception {
        // before v4 the field is not on the wire (auto-creation allowed); both topics exist anyway
        MetadataRequestData data = new MetadataRequestData().setAllowAutoTopicCreation(version < 4);
        for (String topic : List.of(ON_BROKER_2, ON_BROKER_1)) {
            data.topics().add(new MetadataRequestData.MetadataRequestTopic().setName(topic));
        }
        AbstractRequest.Builder<MetadataRequest> exact = new AbstractRequest.Builder<>(ApiKeys.METADATA, version) {
            @Override
            public MetadataRequest build(short v) {
                return new MetadataRequest(data, v);
            }
        };
        return RawConnection.once(bootstrap, SETTLE, exact, ApiKeys.METADATA, version);
    }

    private static MetadataResponsePartition partition(MetadataResponse response, String topic) {
        MetadataResponseTopic t = response.data().topics().find(topic);
        return t == null || t.partitions().isEmpty() ? null : t.partitions().get(0);
    }
}
