package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.codec.endpoint.Endpoint;
import io.sluice.testkit.Poll;
import io.sluice.testkit.security.TestSecurity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Three brokers with two listeners each, as an operator separates traffic: EXTERNAL (SASL_SSL, the clients') first
 * and INTERNAL (PLAINTEXT, inter.broker.listener.name) second. Clients on EXTERNAL see only EXTERNAL endpoints
 * (Metadata, DescribeCluster, FindCoordinator of the consumer group) and an acks=all stream with
 * min.insync.replicas=2 completes and reads back exactly once, so followers replicate: over INTERNAL, the first
 * endpoint every broker registers and the only one a plain-text replica fetcher can log in to. A Metadata request on
 * INTERNAL is answered with INTERNAL endpoints.
 */
class MultiListenerClusterTest extends ClusterTestBase {
    private static final String TOPIC = "two-listeners";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 2_000;
    private TestSecurity security;

    @Override
    List<String> brokerOverrides() {
        security = makeSecurity();
        List<String> settings = new ArrayList<>();
        for (String s : security.brokerSettings("SASL_SSL", "PLAIN")) {
            if (!s.startsWith("listeners=") && !s.startsWith("sasl.mechanism.inter.broker.protocol=")) {
                settings.add(s.replace("listener.name.sasl_ssl.", "listener.name.external."));
            }
        }
        settings.add("listeners=EXTERNAL://127.0.0.1:0,INTERNAL://127.0.0.1:0");
        settings.add("listener.security.protocol.map=EXTERNAL:SASL_SSL,INTERNAL:PLAINTEXT");
        settings.add("inter.broker.listener.name=INTERNAL");
        settings.add("sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512");
        settings.addAll(replicationSettings(10_000));
        return settings;
    }

    /** The bootstrap listener is EXTERNAL, the first one: SASL_SSL. */
    @Override
    Map<String, String> clientSecurity() {
        return security.clientProperties("SASL_SSL", "SCRAM-SHA-256", TestSecurity.PASSWORD, false);
    }

    private Properties external() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        props.putAll(security.clientProperties("SASL_SSL", "SCRAM-SHA-256", TestSecurity.PASSWORD, false));
        return props;
    }

    /** Each broker's port on {@code listener}, from the registrations in the cluster state. */
    private static Map<Integer, Integer> ports(ClusterState state, String listener) {
        Map<Integer, Integer> ports = new TreeMap<>();
        for (BrokerInfo info : state.brokers().values()) {
            Endpoint e = info.endpoint(listener);
            ports.put(info.id(), e == null ? -1 : e.port());
        }
        return ports;
    }

    @Test
    void shouldServeClientsOnTheExternalListenerAndReplicateOnTheInternalOne() throws Exception {
        ClusterState state = Poll.until(
                "three brokers registered", SETTLE, () -> cluster.probe().state(), s -> s.brokerCount() == BROKERS);
        Map<Integer, Integer> externalPorts = ports(state, "EXTERNAL");
        Map<Integer, Integer> internalPorts = ports(state, "INTERNAL");
        for (int id : cluster.brokerIds()) {
            assertEquals(cluster.broker(id).port(), externalPorts.get(id), "EXTERNAL is the first listener served");
            assertNotEquals(externalPorts.get(id), internalPorts.get(id));
            assertEquals(
                    internalPorts.get(id),
                    state.broker(id).primaryEndpoint().port(),
                    "the inter-broker listener is registered first: where other brokers reach broker " + id);
        }

        try (Admin admin = Admin.create(external())) {
            Map<Integer, Integer> described = new TreeMap<>();
            for (Node n : admin.describeCluster().nodes().get(60, TimeUnit.SECONDS)) {
                described.put(n.id(), n.port());
            }
            assertEquals(externalPorts, described, "DescribeCluster on EXTERNAL gives EXTERNAL endpoints");
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) BROKERS)
                            .configs(Map.of("min.insync.replicas", "2"))))
                    .all()
                    .get(60, TimeUnit.SECONDS);
        }
        List<Integer> partitions = partitionNumbers(PARTITIONS);
        Poll.until(
                "every partition of " + TOPIC + " has a leader",
                SETTLE,
                () -> cluster.probe().state().topic(TOPIC),
                t -> t != null
                        && partitions.stream().allMatch(p -> t.partition(p).leader() >= 0));

        int anyId = cluster.brokerIds().get(0);
        MetadataResponse internalAnswer = RawConnection.once(
                "127.0.0.1:" + internalPorts.get(anyId),
                SETTLE,
                new MetadataRequest.Builder(new MetadataRequestData().setTopics(null)),
                ApiKeys.METADATA,
                (short) 12);
        Map<Integer, Integer> internalSeen = new TreeMap<>();
        internalAnswer.brokers().forEach(n -> internalSeen.put(n.id(), n.port()));
        assertEquals(internalPorts, internalSeen, "Metadata on INTERNAL gives INTERNAL endpoints");

        Properties producerProps = external();
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        producerProps.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        Map<String, KeyedRecords.Expected> sent;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps)) {
            sent = KeyedRecords.produce(producer, TOPIC, partitions, RECORDS, "m");
        }
        Poll.until(
                "every replica of " + TOPIC + " in the ISR",
                SETTLE,
                () -> cluster.probe().state().topic(TOPIC),
                t -> partitions.stream().allMatch(p -> t.partition(p).isr().length == BROKERS));

        Properties consumerProps = external();
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "two-listeners-group");
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        consumerProps.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps)) {
            KeyedRecords.assertExactlyOnce(
                    sent, KeyedRecords.readAll(consumer, KeyedRecords.partitions(TOPIC, partitions), SETTLE));
            // The group's coordinator is found through FindCoordinator on EXTERNAL: committing reaches it there.
            consumer.commitSync(java.time.Duration.ofSeconds(60));
        }
    }
}
