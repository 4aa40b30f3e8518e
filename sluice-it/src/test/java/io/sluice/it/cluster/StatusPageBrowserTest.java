package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.it.Acks;
import io.sluice.testkit.HeadlessChromium;
import io.sluice.testkit.Poll;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The status page in a real browser against three brokers in their own JVMs: a topic with replication factor 3, a
 * consumer group with a known backlog, one broker stopped. Debian's headless {@code chromium} loads the page from
 * broker 1 and the rendered DOM (so the page's scripts ran and fetched the JSON, the groups gathered from every live
 * broker) must show the three brokers (the stopped one offline), every partition with the ISR the cluster state has,
 * the group's lag, and the partitions left under-replicated. A screenshot is kept as
 * {@code target/status-page.png}.
 */
class StatusPageBrowserTest extends ClusterTestBase {
    private static final String TOPIC = "watched";
    private static final String GROUP = "page-readers";
    private static final int PARTITIONS = 3;
    private static final int PRODUCED_PER_PARTITION = 30;
    private static final int COMMITTED_PER_PARTITION = 10;
    private static final int STOPPED = 3;
    private static final int PAGE_BROKER = 1;
    private static final Duration PAGE_SETTLE = Duration.ofSeconds(120);
    private static final Path SCREENSHOT = Path.of("target", "status-page.png");
    private static final Pattern TAG = Pattern.compile("<(tr|div|details)\\s([^>]*)>");
    private static final Pattern ATTRIBUTE = Pattern.compile("([a-zA-Z-]+)=\"([^\"]*)\"");

    @Override
    List<String> brokerOverrides() {
        List<String> settings = new ArrayList<>(replicationSettings(2_000));
        settings.add("sluice.http.listener=0");
        settings.add("offsets.topic.replication.factor=3");
        return settings;
    }

    @Test
    void shouldShowBrokersPartitionsLagAndUnderReplicationInTheBrowser() throws Exception {
        assertTrue(HeadlessChromium.isInstalled(), HeadlessChromium.NOT_INSTALLED);
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3)))
                    .all()
                    .get(ClusterClients.REQUEST_TIMEOUT_MS * 3L, TimeUnit.MILLISECONDS);
            Poll.until(
                    "every partition of " + TOPIC + " has a leader",
                    SETTLE,
                    () -> ClusterClients.leaders(admin, TOPIC),
                    l -> l.size() == PARTITIONS && !l.containsValue(ClusterClients.NO_LEADER));
        }
        try (KafkaProducer<String, String> producer = ClusterClients.idempotentProducer(cluster.bootstrap())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                for (int i = 0; i < PRODUCED_PER_PARTITION; i++) {
                    acks.add(producer.send(new ProducerRecord<>(TOPIC, p, "k" + i, "v" + i)));
                }
            }
            producer.flush();
            Acks.awaitAll(acks);
        }
        try (KafkaConsumer<String, String> consumer = ClusterClients.groupConsumer(cluster.bootstrap(), GROUP, 6_000)) {
            Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                commits.put(new TopicPartition(TOPIC, p), new OffsetAndMetadata(COMMITTED_PER_PARTITION));
            }
            consumer.commitSync(commits, Duration.ofSeconds(60));
        }

        cluster.broker(STOPPED).stop();
        ClusterState state = cluster.probe()
                .awaitState(
                        "broker " + STOPPED + " out of every ISR of " + TOPIC,
                        SETTLE,
                        s -> s.topic(TOPIC) != null
                                && !s.hasBroker(STOPPED)
                                && Arrays.stream(isrs(s.topic(TOPIC)))
                                        .noneMatch(isr -> isr.contains(Integer.toString(STOPPED))));
        String url = BrokerHttp.base(state, PAGE_BROKER) + "/";

        HeadlessChromium chromium = new HeadlessChromium(work.resolve("chromium"));
        String expectedLag = Integer.toString(PRODUCED_PER_PARTITION - COMMITTED_PER_PARTITION);
        String expectedTotal = Integer.toString(PARTITIONS * (PRODUCED_PER_PARTITION - COMMITTED_PER_PARTITION));
        String dom = Poll.until(
                "the page in chromium shows the group's lag and the stopped broker",
                PAGE_SETTLE,
                () -> chromium.dumpDom(url),
                html -> html.contains("data-loaded=\"true\"")
                        && tagsWith(html, "data-group", GROUP).stream()
                                .anyMatch(t -> expectedTotal.equals(t.get("data-total-lag")))
                        && tagsWith(html, "data-broker", Integer.toString(STOPPED)).stream()
                                .anyMatch(t -> "false".equals(t.get("data-live"))));
        chromium.screenshot(url, SCREENSHOT, 1280, 2000);

        for (int id : cluster.brokerIds()) {
            List<Map<String, String>> broker = tagsWith(dom, "data-broker", Integer.toString(id));
            assertEquals(1, broker.size(), "broker " + id + " shown once:\n" + dom);
            assertEquals(
                    Boolean.toString(id != STOPPED), broker.get(0).get("data-live"), "broker " + id + " live flag");
        }
        String[] isrs = isrs(state.topic(TOPIC));
        List<Map<String, String>> partitionRows = tagsWith(dom, "data-topic", TOPIC).stream()
                .filter(t -> t.containsKey("data-isr"))
                .toList();
        assertEquals(PARTITIONS, partitionRows.size(), "a row per partition of " + TOPIC + ":\n" + dom);
        for (Map<String, String> row : partitionRows) {
            int partition = Integer.parseInt(row.get("data-partition"));
            assertEquals(isrs[partition], row.get("data-isr"), "ISR of " + TOPIC + "-" + partition + " on the page");
            assertEquals("true", row.get("data-under-replicated"), TOPIC + "-" + partition + " flagged");
            assertTrue(row.get("class").contains("under-replicated"), TOPIC + "-" + partition + " highlighted");
        }
        List<Map<String, String>> lagRows = tagsWith(dom, "data-group", GROUP).stream()
                .filter(t -> t.containsKey("data-lag"))
                .toList();
        assertEquals(PARTITIONS, lagRows.size(), "a lag row per partition:\n" + dom);
        for (Map<String, String> row : lagRows) {
            assertEquals(expectedLag, row.get("data-lag"), "lag of " + row);
        }
        assertTrue(Files.size(SCREENSHOT) > 10_000, "a screenshot with content at " + SCREENSHOT.toAbsolutePath());
    }

    /** The ISR of each partition as the page writes it ({@code "1,2"}), by partition index. */
    private static String[] isrs(TopicState topic) {
        String[] isrs = new String[topic.partitionCount()];
        for (int p = 0; p < isrs.length; p++) {
            PartitionState ps = topic.partition(p);
            isrs[p] = Arrays.stream(ps.isr()).mapToObj(Integer::toString).collect(Collectors.joining(","));
        }
        return isrs;
    }

    /** The attributes of every tr, div and details element whose {@code attribute} is {@code value}. */
    private static List<Map<String, String>> tagsWith(String html, String attribute, String value) {
        List<Map<String, String>> found = new ArrayList<>();
        Matcher tag = TAG.matcher(html);
        while (tag.find()) {
            Map<String, String> attributes = new LinkedHashMap<>();
            Matcher a = ATTRIBUTE.matcher(tag.group(2));
            while (a.find()) {
                attributes.put(a.group(1), a.group(2));
            }
            if (value.equals(attributes.get(attribute))) {
                found.add(attributes);
            }
        }
        return found;
    }
}
