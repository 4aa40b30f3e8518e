package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.it.Acks;
import io.sluice.testkit.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * Apache Kafka Streams 3.9 (Maven Central's {@code kafka-streams}) word count against a three-broker cluster,
 * at-least-once: lines go through a repartition topic (purged by Streams with DeleteRecords once consumed) into a
 * RocksDB count store backed by a compacted changelog topic, and counts go to an output topic. The counts read back
 * match the words written; the application closed, its local state wiped, and started again restores the store from
 * the changelog and counts on from there.
 *
 * <p>Not thread-safe; JUnit runs it on one thread.
 */
class KafkaStreamsTest extends ClusterTestBase {
    private static final String APP = "sluice-word-count";
    private static final String LINES = "word-lines";
    private static final String COUNTS = "word-counts";
    private static final String STORE = "counts-store";
    private static final String CHANGELOG = APP + "-" + STORE + "-changelog";
    private static final String REPARTITION = APP + "-" + STORE + "-repartition";
    private static final Duration STREAMS_SETTLE = Duration.ofSeconds(120);
    private static final List<String> WORDS = List.of("sluice", "kafka", "log", "broker", "replica", "stream", "topic");

    @Test
    void shouldCountWordsAndRestoreTheStoreFromTheChangelog() throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            ClusterClients.createTopic(admin, LINES, 3);
            ClusterClients.createTopic(admin, COUNTS, 3);
        }
        Map<String, Long> expected = new TreeMap<>();
        writeLines(0, 400, expected);

        Path state = work.resolve("streams-state");
        try (KafkaStreams app = build(state);
                Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            app.start();
            awaitCounts(app, expected);
            Config changelog = admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, CHANGELOG)))
                    .all()
                    .get()
                    .values()
                    .iterator()
                    .next();
            assertEquals("compact", changelog.get("cleanup.policy").value(), "the changelog's cleanup.policy");
            // Streams purges only while it runs: after a commit, once repartition.purge.interval.ms has passed, it asks
            // DeleteRecords up to the committed offsets. The store can hold every count before the first such commit,
            // and a closed application purges nothing more, so the application stays up until the purge is seen.
            Poll.until(
                    "Streams purged consumed records of " + REPARTITION + " with DeleteRecords",
                    STREAMS_SETTLE,
                    () -> logStarts(admin, REPARTITION),
                    starts -> starts.values().stream().anyMatch(s -> s > 0));
        }

        // The application's local state is gone (a new machine): the counts of the first lines, whose input offsets
        // are committed and never read again, can only come back from the changelog.
        writeLines(400, 700, expected);
        try (KafkaStreams restarted = build(state)) {
            restarted.cleanUp();
            restarted.start();
            awaitCounts(restarted, expected);
        }
    }

    /** The word-count application on {@code stateDir}, not started. */
    private KafkaStreams build(Path stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 3);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
        props.put(StreamsConfig.REPARTITION_PURGE_INTERVAL_MS_CONFIG, 200);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(LINES, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(line -> Arrays.asList(line.split(" ")))
                .groupBy((key, word) -> word, Grouped.with(STORE, Serdes.String(), Serdes.String()))
                .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as(STORE)
                        .withKeySerde(Serdes.String())
                        .withValueSerde(Serdes.Long()))
                .toStream()
                .to(COUNTS, Produced.with(Serdes.String(), Serdes.Long()));
        return new KafkaStreams(builder.build(), props);
    }

    /** Writes lines {@code from} to {@code to} (exclusive), each a few words, and adds their words to {@code counts}. */
    private void writeLines(int from, int to, Map<String, Long> counts) throws Exception {
        try (KafkaProducer<String, String> producer = ClusterClients.idempotentProducer(cluster.bootstrap())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = from; i < to; i++) {
                String line = WORDS.get(i % WORDS.size()) + " " + WORDS.get((i * 3 + 1) % WORDS.size()) + " "
                        + WORDS.get((i / 7) % WORDS.size());
                for (String word : line.split(" ")) {
                    counts.merge(word, 1L, Long::sum);
                }
                acks.add(producer.send(new ProducerRecord<>(LINES, Integer.toString(i), line)));
            }
            producer.flush();
            Acks.awaitAll(acks);
        }
    }

    /** Waits until the running application's count store holds exactly {@code expected}. */
    private static void awaitCounts(KafkaStreams app, Map<String, Long> expected) throws Exception {
        Map<String, Long> seen = Poll.until(
                "the count store of " + APP + " holds " + expected, STREAMS_SETTLE, () -> counts(app), counts -> {
                    if (app.state() == KafkaStreams.State.ERROR || app.state() == KafkaStreams.State.NOT_RUNNING) {
                        throw new AssertionError("the Streams application stopped: " + app.state());
                    }
                    counts.forEach((word, n) -> assertTrue(
                            n <= expected.getOrDefault(word, 0L),
                            () -> "counted " + word + " " + n + " times, more than the " + expected.get(word)
                                    + " written (at-least-once without a failure must not count twice)"));
                    return counts.equals(expected);
                });
        assertEquals(expected, seen);
    }

    private static Map<String, Long> counts(KafkaStreams app) {
        ReadOnlyKeyValueStore<String, Long> store =
                app.store(StoreQueryParameters.fromNameAndType(STORE, QueryableStoreTypes.keyValueStore()));
        Map<String, Long> counts = new TreeMap<>();
        try (var all = store.all()) {
            all.forEachRemaining(kv -> counts.put(kv.key, kv.value));
        }
        return counts;
    }

    private static Map<Integer, Long> logStarts(Admin admin, String topic) throws Exception {
        int partitions = admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get()
                .get(topic)
                .partitions()
                .size();
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.earliest());
        }
        return admin.listOffsets(request).all().get().entrySet().stream()
                .collect(Collectors.toMap(
                        e -> e.getKey().partition(), e -> e.getValue().offset()));
    }
}
