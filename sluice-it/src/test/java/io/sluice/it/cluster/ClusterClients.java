package io.sluice.it.cluster;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka Java clients for the cluster tests, with bounded timeouts so that a broker that never answers fails a test
 * instead of hanging it, and the Admin calls the tests share.
 *
 * <p>Thread-safe; stateless.
 */
final class ClusterClients {
    static final int REQUEST_TIMEOUT_MS = 20_000;
    static final Path KEPT_LOGS = Path.of("target", "broker-logs");
    /** What describeTopics reports as the leader of an offline partition (no leader node). */
    static final int NO_LEADER = -1;

    private ClusterClients() {}

    static Admin admin(String bootstrap) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS));
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS * 3));
        return Admin.create(props);
    }

    /** Idempotent, acks=all: every record lands exactly once even when the client retries. */
    static KafkaProducer<String, String> idempotentProducer(String bootstrap) {
        Properties props = producerProps(bootstrap, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "sluice-cluster-it-producer");
        return new KafkaProducer<>(props);
    }

    /**
     * Not idempotent and without retries, with the given acks: the first error the broker answers for a batch is what
     * the send's future fails with, as its typed exception.
     */
    static KafkaProducer<String, String> unretriedProducer(String bootstrap, String acks) {
        Properties props = producerProps(bootstrap, acks);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        props.put(ProducerConfig.RETRIES_CONFIG, "0");
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "sluice-cluster-it-producer-acks-" + acks);
        return new KafkaProducer<>(props);
    }

    private static Properties producerProps(String bootstrap, String acks) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, acks);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS));
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS * 6));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS * 3));
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return props;
    }

    /** For {@code assign()}: no group, no commits, reads from the earliest offset. */
    static KafkaConsumer<String, String> assignConsumer(String bootstrap) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS));
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS * 3));
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-cluster-it-consumer");
        return new KafkaConsumer<>(props);
    }

    /**
     * A member of consumer group {@code groupId} committing by hand, with a short session (the brokers must allow it
     * with group.min.session.timeout.ms) so a member that is gone leaves quickly.
     */
    static KafkaConsumer<String, String> groupConsumer(String bootstrap, String groupId, int sessionTimeoutMs) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Integer.toString(sessionTimeoutMs));
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Integer.toString(sessionTimeoutMs / 6));
        props.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS));
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS * 3));
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-cluster-it-" + groupId);
        return new KafkaConsumer<>(props);
    }

    static void createTopic(Admin admin, String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                .all()
                .get(REQUEST_TIMEOUT_MS * 3L, TimeUnit.MILLISECONDS);
    }

    /** Partition → leader broker id ({@link #NO_LEADER} when offline), as the Admin client describes the topic. */
    static Map<Integer, Integer> leaders(Admin admin, String topic) throws Exception {
        TopicDescription description = admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get(REQUEST_TIMEOUT_MS * 3L, TimeUnit.MILLISECONDS)
                .get(topic);
        Map<Integer, Integer> leaders = new TreeMap<>();
        for (TopicPartitionInfo partition : description.partitions()) {
            Node leader = partition.leader();
            leaders.put(partition.partition(), leader == null || leader.isEmpty() ? NO_LEADER : leader.id());
        }
        return leaders;
    }
}
