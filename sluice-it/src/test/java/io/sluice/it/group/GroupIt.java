package io.sluice.it.group;

import io.sluice.testkit.ChildProcessRunner;
import io.sluice.testkit.RawKafkaSocket;
import io.sluice.testkit.SluiceBrokerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What the consumer-group integration tests share: the broker settings they run with, client configurations with
 * bounded timeouts, topic creation, raw requests over a socket, and the command line that starts a class of this test classpath in its own JVM.
 * Stateless; thread-safe.
 */
final class GroupIt {
    /** Short initial delay and session bounds so rebalances in tests take seconds, not minutes. */
    static final String[] BROKER_OVERRIDES = {
        "group.initial.rebalance.delay.ms=300", "group.min.session.timeout.ms=6000",
    };

    static final int SESSION_TIMEOUT_MS = 6000;
    static final int HEARTBEAT_INTERVAL_MS = 1000;
    static final int REQUEST_TIMEOUT_MS = 20_000;
    static final Path KEPT_LOGS = Path.of("target", "broker-logs");
    /** Bound on a response frame read over a raw socket: far above any group response, far below the test heap. */
    static final int MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

    private static final AtomicInteger CORRELATION = new AtomicInteger(1);

    private GroupIt() {}

    /** Sends one request built with kafka-clients' classes over {@code socket} and parses the response. */
    @SuppressWarnings("unchecked")
    static <R extends AbstractResponse> R send(
            RawKafkaSocket socket, AbstractRequest.Builder<?> builder, ApiKeys api, short version) throws IOException {
        RequestHeader header = new RequestHeader(api, version, "sluice-it-group", CORRELATION.getAndIncrement());
        socket.sendFrame(builder.build(version).serializeWithHeader(header));
        return (R) AbstractResponse.parseResponse(socket.readFrame(MAX_RESPONSE_BYTES), header);
    }

    static SluiceBrokerProcess startBroker(Path tempDir) throws IOException {
        return SluiceBrokerProcess.start(tempDir.resolve("data"), BROKER_OVERRIDES);
    }

    /** SIGTERM (SIGKILL if needed) and keep the broker log as target/broker-logs/<test>.log; never throws. */
    static void stopAndKeepLog(SluiceBrokerProcess broker, Class<?> testClass) {
        if (broker == null) {
            return;
        }
        try {
            broker.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            broker.close();
        }
        try {
            Files.createDirectories(KEPT_LOGS);
            if (Files.exists(broker.logFile())) {
                Files.copy(
                        broker.logFile(),
                        KEPT_LOGS.resolve(testClass.getSimpleName() + ".log"),
                        StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            System.err.println("could not keep broker log " + broker.logFile() + ": " + e);
        }
    }

    static Admin admin(String bootstrap) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS));
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS * 2));
        return Admin.create(props);
    }

    static void createTopic(String bootstrap, String topic, int partitions) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                    .all()
                    .get(REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        }
    }

    static KafkaProducer<String, String> producer(String bootstrap) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS));
        return new KafkaProducer<>(props);
    }

    /** A group consumer committing by hand, with a short session so crashed members leave quickly. */
    static Properties consumerProps(String bootstrap, String groupId) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Integer.toString(SESSION_TIMEOUT_MS));
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Integer.toString(HEARTBEAT_INTERVAL_MS));
        props.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS));
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(REQUEST_TIMEOUT_MS * 2));
        return props;
    }

    /** {@code java -cp <this test classpath> <mainClass> <args>}: runs a tool or test main in its own JVM. */
    static List<String> javaCommand(String mainClass, String... args) {
        return ChildProcessRunner.javaMain(mainClass, args);
    }
}
