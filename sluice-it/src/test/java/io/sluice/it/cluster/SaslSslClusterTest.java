package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.Poll;
import io.sluice.testkit.security.TestSecurity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Three brokers whose only listener is SASL_SSL, inter-broker traffic included: followers fetch from leaders and
 * leaders reach the controller over TLS with a SCRAM-SHA-512 login of their own. An acks=all stream with
 * min.insync.replicas=2 is acknowledged only when followers have it, so it completes only if replication works over
 * the secured listener; afterwards every replica is in the ISR and the records read back exactly once. SASL sessions
 * last 4 s (connections.max.reauth.ms), so brokers and clients log in again during the test.
 */
class SaslSslClusterTest extends ClusterTestBase {
    private static final String TOPIC = "secured";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 3_000;
    private TestSecurity security;

    @Override
    List<String> brokerOverrides() {
        security = makeSecurity();
        List<String> settings = new ArrayList<>(security.brokerSettings("SASL_SSL", "SCRAM-SHA-512"));
        settings.addAll(replicationSettings(10_000));
        // Sessions end every 4 s: the brokers' own connections (fetchers, controller channel) must log in anew.
        settings.add("connections.max.reauth.ms=4000");
        return settings;
    }

    @Override
    Map<String, String> clientSecurity() {
        return security.clientProperties("SASL_SSL", "SCRAM-SHA-256", TestSecurity.PASSWORD, false);
    }

    @Test
    void shouldReplicateAnAcksAllStreamOverSaslSsl() throws Exception {
        Map<String, String> secured = clientSecurity();
        Properties adminProps = new Properties();
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        adminProps.putAll(secured);
        try (Admin admin = Admin.create(adminProps)) {
            // Asked right after the start: every broker lists all three by then (the start waits for it), so
            // whichever broker takes the request allows a replication factor of three.
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

        Properties producerProps = new Properties();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        producerProps.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producerProps.putAll(secured);
        Map<String, KeyedRecords.Expected> sent;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps)) {
            sent = KeyedRecords.produce(producer, TOPIC, partitions, RECORDS, "s");
        }

        Poll.until(
                "every replica of " + TOPIC + " in the ISR",
                SETTLE,
                () -> cluster.probe().state().topic(TOPIC),
                t -> partitions.stream().allMatch(p -> t.partition(p).isr().length == BROKERS));

        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        consumerProps.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        consumerProps.putAll(secured);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps)) {
            KeyedRecords.assertExactlyOnce(
                    sent, KeyedRecords.readAll(consumer, KeyedRecords.partitions(TOPIC, partitions), SETTLE));
        }
        assertEquals(BROKERS, cluster.probe().state().topic(TOPIC).partition(0).replicas().length);
    }
}
