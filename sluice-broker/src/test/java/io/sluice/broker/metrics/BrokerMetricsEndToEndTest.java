package io.sluice.broker.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.api.InProcessBroker;
import io.sluice.testkit.Poll;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A known workload through kafka-clients against an in-process broker (N records of known size to one topic, one
 * NOT_ENOUGH_REPLICAS produce to another, one consumer reading everything back), then Kafka's MBeans read through a
 * real JMX connector (RMI, ephemeral port) and the Prometheus scrape checked by promtool (Debian's prometheus
 * package, which .ci/run installs) and compared sample by sample with JMX.
 */
class BrokerMetricsEndToEndTest {
    private static final String TOPIC = "metrics-topic";
    private static final String MIN_ISR_TOPIC = "min-isr-topic";
    private static final int RECORDS = 100;
    private static final int VALUE_BYTES = 100;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dataDir;

    @TempDir
    static Path scratch;

    static InProcessBroker broker;
    static JMXConnectorServer jmxServer;
    static JMXConnector jmx;
    static MBeanServerConnection beans;

    @BeforeAll
    @SuppressWarnings("BanJNDI") // a JMX client of this test's own connector on 127.0.0.1, as a monitoring tool reads
    static void startBrokerAndRunWorkload() throws Exception {
        broker =
                new InProcessBroker(dataDir, Map.of("sluice.http.listener", "0", "auto.create.topics.enable", "false"));
        jmxServer = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi://127.0.0.1"), null, ManagementFactory.getPlatformMBeanServer());
        jmxServer.start();
        jmx = JMXConnectorFactory.connect(jmxServer.getAddress());
        beans = jmx.getMBeanServerConnection();
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(
                            new NewTopic(TOPIC, 1, (short) 1),
                            new NewTopic(MIN_ISR_TOPIC, 1, (short) 1).configs(Map.of("min.insync.replicas", "2"))))
                    .all()
                    .get();
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps())) {
            byte[] value = new byte[VALUE_BYTES];
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(TOPIC, value)).get();
            }
            ExecutionException refused = assertThrows(
                    ExecutionException.class,
                    () -> producer.send(new ProducerRecord<>(MIN_ISR_TOPIC, value))
                            .get());
            assertInstanceOf(NotEnoughReplicasException.class, refused.getCause());
        }
        Properties consumerProps = new Properties();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(new TopicPartition(TOPIC, 0)));
            int read = 0;
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (read < RECORDS && System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                read += records.count();
            }
            assertEquals(RECORDS, read, "records consumed back");
        }
    }

    @AfterAll
    static void stop() throws IOException {
        if (jmx != null) {
            jmx.close();
        }
        if (jmxServer != null) {
            jmxServer.stop();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static Properties producerProps() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        // One try: the NOT_ENOUGH_REPLICAS answer must reach the test, not be retried until the delivery timeout.
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        props.put(ProducerConfig.RETRIES_CONFIG, 0);
        return props;
    }

    private static ObjectName name(String text) throws Exception {
        return new ObjectName(text);
    }

    private static Object attribute(String objectName, String attribute) throws Exception {
        return beans.getAttribute(name(objectName), attribute);
    }

    private static long count(String objectName) throws Exception {
        return (Long) attribute(objectName, "Count");
    }

    private static long gauge(String objectName) throws Exception {
        return ((Number) attribute(objectName, "Value")).longValue();
    }

    private static long logSize() throws Exception {
        return gauge("kafka.log:type=Log,name=Size,topic=" + TOPIC + ",partition=0");
    }

    @Test
    void shouldCountRecordsBytesAndTheFailedProduceUnderKafkasBrokerTopicMetrics() throws Exception {
        long size = Poll.until(
                "the Log gauges of " + TOPIC + "-0",
                WAIT,
                BrokerMetricsEndToEndTest::logSize,
                bytes -> bytes > (long) RECORDS * VALUE_BYTES);
        String topicMeters = "kafka.server:type=BrokerTopicMetrics,name=%s,topic=" + TOPIC;
        assertEquals(RECORDS, count(String.format(Locale.ROOT, topicMeters, "MessagesInPerSec")));
        assertEquals(
                size,
                count(String.format(Locale.ROOT, topicMeters, "BytesInPerSec")),
                "bytes in = the bytes the log holds");
        assertEquals(
                size,
                Poll.until(
                        "bytes out to the consumer",
                        WAIT,
                        () -> count(String.format(Locale.ROOT, topicMeters, "BytesOutPerSec")),
                        out -> out >= size));
        assertEquals(0, count(String.format(Locale.ROOT, topicMeters, "FailedProduceRequestsPerSec")));
        assertEquals(RECORDS, count(String.format(Locale.ROOT, topicMeters, "TotalProduceRequestsPerSec")));
        assertEquals(
                1,
                count("kafka.server:type=BrokerTopicMetrics,name=FailedProduceRequestsPerSec,topic=" + MIN_ISR_TOPIC));
        assertEquals(1, count("kafka.server:type=BrokerTopicMetrics,name=FailedProduceRequestsPerSec"), "all topics");
        assertEquals(RECORDS, count("kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec"), "all topics");
        assertEquals(0, count("kafka.server:type=BrokerTopicMetrics,name=FailedFetchRequestsPerSec"));

        ObjectName bytesIn = name(String.format(Locale.ROOT, topicMeters, "BytesInPerSec"));
        assertEquals(
                Set.of(
                        "Count",
                        "EventType",
                        "RateUnit",
                        "MeanRate",
                        "OneMinuteRate",
                        "FiveMinuteRate",
                        "FifteenMinuteRate"),
                attributeNames(bytesIn));
        assertEquals("bytes", beans.getAttribute(bytesIn, "EventType"));
        assertEquals(TimeUnit.SECONDS, beans.getAttribute(bytesIn, "RateUnit"));
        assertTrue((Double) beans.getAttribute(bytesIn, "MeanRate") > 0, "a mean rate once bytes came in");
    }

    @Test
    void shouldTimeAndCountRequestsPerTypeVersionAndError() throws Exception {
        Set<ObjectName> produceRates =
                beans.queryNames(name("kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce,*"), null);
        assertEquals(1, produceRates.size(), "one client, one Produce version: " + produceRates);
        ObjectName produceRate = produceRates.iterator().next();
        assertTrue(Short.parseShort(produceRate.getKeyProperty("version")) >= 3, produceRate.toString());
        assertEquals(
                RECORDS + 1,
                (Long) beans.getAttribute(produceRate, "Count"),
                "every produce request, the refused one too");
        assertEquals(RECORDS, count("kafka.network:type=RequestMetrics,name=ErrorsPerSec,request=Produce,error=NONE"));
        assertEquals(
                1,
                count("kafka.network:type=RequestMetrics,name=ErrorsPerSec,request=Produce,error=NOT_ENOUGH_REPLICAS"));

        for (String time :
                List.of("TotalTimeMs", "RequestQueueTimeMs", "LocalTimeMs", "RemoteTimeMs", "ResponseSendTimeMs")) {
            ObjectName histogram = name("kafka.network:type=RequestMetrics,name=" + time + ",request=Produce");
            assertEquals(RECORDS + 1, (Long) beans.getAttribute(histogram, "Count"), time);
            assertEquals(
                    Set.of(
                            "Count",
                            "Min",
                            "Max",
                            "Mean",
                            "StdDev",
                            "50thPercentile",
                            "75thPercentile",
                            "95thPercentile",
                            "98thPercentile",
                            "99thPercentile",
                            "999thPercentile"),
                    attributeNames(histogram));
            double median = (Double) beans.getAttribute(histogram, "50thPercentile");
            double max = (Double) beans.getAttribute(histogram, "Max");
            assertTrue(median >= 0 && median <= max, time + " median " + median + " within max " + max);
        }
        long fetches = count("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Fetch");
        assertTrue(fetches >= 1, "the consumer fetched");
        assertEquals(
                fetches,
                count("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=FetchConsumer"),
                "every fetch came from the consumer");
        assertTrue(
                beans.queryNames(name("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=FetchFollower"), null)
                                .size()
                        == 1,
                "FetchFollower exists, empty, on a single broker");
    }

    @Test
    void shouldShowReplicaManagerControllerLogAndFetcherState() throws Exception {
        Poll.until("the Log gauges", WAIT, BrokerMetricsEndToEndTest::logSize, bytes -> bytes > 0);
        assertEquals(2, gauge("kafka.server:type=ReplicaManager,name=PartitionCount"));
        assertEquals(2, gauge("kafka.server:type=ReplicaManager,name=LeaderCount"));
        assertEquals(0, gauge("kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions"));
        assertEquals(
                1,
                gauge("kafka.server:type=ReplicaManager,name=UnderMinIsrPartitionCount"),
                MIN_ISR_TOPIC + " has 1 in-sync replica of min.insync.replicas=2");
        assertEquals(0, count("kafka.server:type=ReplicaManager,name=IsrShrinksPerSec"));
        assertEquals(0, count("kafka.server:type=ReplicaManager,name=IsrExpandsPerSec"));
        assertEquals(1, gauge("kafka.controller:type=KafkaController,name=ActiveControllerCount"));
        assertEquals(0, gauge("kafka.controller:type=KafkaController,name=OfflinePartitionsCount"));
        assertEquals(2, gauge("kafka.controller:type=KafkaController,name=GlobalPartitionCount"));
        assertEquals(RECORDS, gauge("kafka.log:type=Log,name=LogEndOffset,topic=" + TOPIC + ",partition=0"));
        assertEquals(0, gauge("kafka.log:type=Log,name=LogStartOffset,topic=" + TOPIC + ",partition=0"));
        assertEquals(0, gauge("kafka.server:type=ReplicaFetcherManager,name=MaxLag,clientId=Replica"));
        assertEquals(Set.of("Value"), attributeNames(name("kafka.server:type=ReplicaManager,name=PartitionCount")));
    }

    @Test
    void shouldServeAPrometheusScrapeThatPromtoolAcceptsWithTheJmxValues() throws Exception {
        long size = Poll.until("the Log gauges", WAIT, BrokerMetricsEndToEndTest::logSize, bytes -> bytes > 0);
        Poll.until(
                "bytes out to the consumer",
                WAIT,
                () -> count("kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec,topic=" + TOPIC),
                out -> out >= size);
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                        + broker.broker.httpAddress().getPort() + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertTrue(
                response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"),
                response.headers().toString());
        String scrape = response.body();
        assertPromtoolAccepts(scrape);

        String topic = "{topic=\"" + TOPIC + "\"}";
        assertEquals(RECORDS, sample(scrape, "kafka_server_brokertopicmetrics_messagesin_total" + topic));
        assertEquals(size, sample(scrape, "kafka_server_brokertopicmetrics_bytesin_total" + topic));
        assertEquals(size, sample(scrape, "kafka_server_brokertopicmetrics_bytesout_total" + topic));
        assertEquals(
                1,
                sample(
                        scrape,
                        "kafka_server_brokertopicmetrics_failedproducerequests_total{topic=\"" + MIN_ISR_TOPIC
                                + "\"}"));
        assertEquals(
                1,
                sample(
                        scrape,
                        "kafka_network_requestmetrics_errors_total{error=\"NOT_ENOUGH_REPLICAS\",request=\"Produce\"}"));
        assertEquals(RECORDS + 1, sample(scrape, "kafka_network_requestmetrics_totaltime_count{request=\"Produce\"}"));
        assertTrue(
                scrape.contains("kafka_network_requestmetrics_totaltime{request=\"Produce\",quantile=\"0.99\"}"),
                "the 99th percentile of Produce's total time");
        assertEquals(1, sample(scrape, "kafka_server_replicamanager_underminisrpartitioncount"));
        assertEquals(1, sample(scrape, "kafka_controller_kafkacontroller_activecontrollercount"));
        assertEquals(RECORDS, sample(scrape, "kafka_log_log_logendoffset{partition=\"0\",topic=\"" + TOPIC + "\"}"));
        assertEquals(0, sample(scrape, "kafka_server_replicafetchermanager_maxlag{clientid=\"Replica\"}"));
        for (String jvm : List.of("jvm_memory_used_bytes", "jvm_threads_current", "jvm_gc_collection_seconds_count")) {
            assertTrue(scrape.contains("\n" + jvm), "JVM metric " + jvm);
        }
    }

    private static Set<String> attributeNames(ObjectName bean) throws Exception {
        return Arrays.stream(beans.getMBeanInfo(bean).getAttributes())
                .map(MBeanAttributeInfo::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The value of the sample line starting with {@code series} (name and labels, sorted by name as the writer does). */
    static long sample(String scrape, String series) {
        for (String line : scrape.split("\n")) {
            if (line.startsWith(series + " ")) {
                return (long) Double.parseDouble(
                        line.substring(series.length() + 1).trim().split(" ")[0]);
            }
        }
        String family = series.contains("{") ? series.substring(0, series.indexOf('{')) : series;
        throw new AssertionError("no sample " + series + " in the scrape; samples of " + family + ": "
                + Arrays.stream(scrape.split("\n"))
                        .filter(l -> l.startsWith(family))
                        .toList());
    }

    /** promtool check metrics parses the text format strictly and lints names, types and help. */
    static void assertPromtoolAccepts(String scrape) throws Exception {
        assertPromtoolAccepts(scrape, scratch);
    }

    /** As above, the scrape written under {@code scratch}. */
    static void assertPromtoolAccepts(String scrape, Path scratch) throws Exception {
        Path file = Files.writeString(Files.createTempFile(scratch, "scrape", ".txt"), scrape);
        Process promtool;
        try {
            promtool = new ProcessBuilder("promtool", "check", "metrics")
                    .redirectInput(file.toFile())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new AssertionError("promtool is missing: install Debian's prometheus package (.ci/run does)", e);
        }
        String output = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(promtool.waitFor(60, TimeUnit.SECONDS), "promtool finished");
        assertEquals(0, promtool.exitValue(), "promtool check metrics: " + output);
        assertNotNull(output);
    }
}
