package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.PartitionState;
import io.sluice.testkit.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.Test;

/**
 * Replication factor 3, min.insync.replicas=2, both followers frozen (SIGSTOP). While they are still in the ISR, what
 * acks=1 appends lies past the high watermark: a consumer's fetch stops below it. Once the ISR has shrunk to the
 * leader, acks=all is refused with NOT_ENOUGH_REPLICAS (raw, and as the Java producer's NotEnoughReplicasException)
 * and nothing of it is appended, acks=1 is accepted, and the high watermark follows the leader's log end (Kafka's rule
 * with an ISR of one): ListOffsets latest and what a consumer reads end exactly there. When the followers resume they
 * rejoin, acks=all is accepted again and the three logs end byte-identical.
 */
class MinInsyncReplicasTest extends ClusterTestBase {
    private static final String TOPIC = "min-insync";
    private static final int LAG_TIME_MS = 3_000;
    /**
     * A fetch answered this soon after the followers froze is before the leader may drop them from the ISR (after
     * {@link #LAG_TIME_MS} without a caught-up fetch), so its high watermark is still bounded by their logs.
     */
    private static final Duration BEFORE_ANY_SHRINK = Duration.ofMillis(LAG_TIME_MS * 2 / 3);

    private static final int RECORDS = 100;
    private static final short ACKS_LEADER = 1;
    private static final short ACKS_ALL = -1;

    @Override
    List<String> brokerOverrides() {
        return replicationSettings(LAG_TIME_MS);
    }

    @Test
    void shouldRefuseAcksAllBelowMinInsyncAndServeConsumersOnlyBelowTheHighWatermark() throws Exception {
        ReplicatedPartition partition = ReplicatedPartition.create(cluster, TOPIC, Map.of("min.insync.replicas", "2"));
        Map<String, KeyedRecords.Expected> visible = new LinkedHashMap<>(produce(TOPIC, List.of(0), RECORDS, "synced"));
        PartitionState full = partition.state();
        int leader = full.leader();
        String leaderAddress = cluster.broker(leader).bootstrap();
        List<Integer> followers = partition.followers(full);
        List<String> refusedKeys = new ArrayList<>();
        try {
            for (int follower : followers) {
                cluster.broker(follower).pause();
            }
            long frozenAt = System.nanoTime();
            ProduceResponseData.PartitionProduceResponse beyond = rawProduce(leaderAddress, ACKS_LEADER, "beyond-hw");
            assertEquals(Errors.NONE, Errors.forCode(beyond.errorCode()), "acks=1 while the followers are frozen");
            FetchResponseData.PartitionData fetched = consumerFetch(partition, leaderAddress, beyond.baseOffset());
            boolean beforeAnyShrink = System.nanoTime() - frozenAt < BEFORE_ANY_SHRINK.toNanos();
            assertReadOnlyBelowHighWatermark(fetched);
            if (beforeAnyShrink) {
                assertTrue(
                        fetched.highWatermark() <= beyond.baseOffset(),
                        "high watermark " + fetched.highWatermark() + " passed offset " + beyond.baseOffset()
                                + ", which no frozen ISR member holds");
            }
            visible.putAll(expected("beyond-hw"));

            partition.awaitState(
                    "the ISR shrunk to the leader " + leader,
                    p -> p.leader() == leader && p.isr().length == 1 && p.isr()[0] == leader);
            Poll.until(
                    "the leader " + leader + " itself answers Metadata with the shrunk ISR",
                    SETTLE,
                    () -> OneRequest.metadata(leaderAddress, TOPIC)
                            .partitions()
                            .get(0)
                            .isrNodes(),
                    isr -> isr.equals(List.of(leader)));
            ProduceResponseData.PartitionProduceResponse refused = rawProduce(leaderAddress, ACKS_ALL, "refused-raw");
            refusedKeys.addAll(expected("refused-raw").keySet());
            assertEquals(Errors.NOT_ENOUGH_REPLICAS, Errors.forCode(refused.errorCode()), "raw acks=all");
            try (KafkaProducer<String, String> acksAll = ClusterClients.unretriedProducer(leaderAddress, "all")) {
                refusedKeys.add("refused-java");
                ExecutionException e = assertThrows(
                        ExecutionException.class,
                        () -> acksAll.send(record("refused-java"))
                                .get(ClusterClients.REQUEST_TIMEOUT_MS * 3L, TimeUnit.MILLISECONDS));
                assertInstanceOf(NotEnoughReplicasException.class, e.getCause(), "Java producer, acks=all");
            }
            try (KafkaProducer<String, String> acksOne = ClusterClients.unretriedProducer(leaderAddress, "1")) {
                RecordMetadata accepted = acksOne.send(record("accepted-acks1"))
                        .get(ClusterClients.REQUEST_TIMEOUT_MS * 3L, TimeUnit.MILLISECONDS);
                visible.put("accepted-acks1", new KeyedRecords.Expected(0, "value-of-accepted-acks1"));
                long end = accepted.offset() + 1;
                assertEquals(
                        end,
                        Poll.until(
                                "ListOffsets latest at the leader's log end " + end,
                                SETTLE,
                                () -> latestOffset(partition),
                                latest -> latest == end),
                        "high watermark with an ISR of one");
            }
            List<ConsumerRecord<String, String>> read = partition.readAll();
            assertEquals(latestOffset(partition), read.size(), "a consumer reads exactly to ListOffsets latest");
            assertTrue(read.stream().noneMatch(r -> refusedKeys.contains(r.key())), "a refused record was appended");
            KeyedRecords.assertExactlyOnce(visible, read);
        } finally {
            for (int follower : followers) {
                cluster.broker(follower).resume();
            }
        }
        partition.awaitFullIsr();
        visible.putAll(produce(TOPIC, List.of(0), RECORDS, "resynced"));
        KeyedRecords.assertExactlyOnce(visible, partition.readAll());
        partition.awaitIdenticalReplicas();
    }

    private ProduceResponseData.PartitionProduceResponse rawProduce(String address, short acks, String tag)
            throws Exception {
        ProduceResponse response = RawConnection.once(
                address,
                SETTLE,
                ReplicationRequests.produce(
                        TOPIC,
                        acks,
                        ClusterClients.REQUEST_TIMEOUT_MS,
                        List.copyOf(expected(tag).keySet())),
                ApiKeys.PRODUCE,
                ReplicationRequests.PRODUCE_VERSION);
        return ReplicationRequests.partition(response);
    }

    /** The records {@link #rawProduce} sends under {@code tag}. */
    private static Map<String, KeyedRecords.Expected> expected(String tag) {
        Map<String, KeyedRecords.Expected> out = new LinkedHashMap<>();
        IntStream.range(0, FrozenLeader.RECORDS_PER_REQUEST)
                .forEach(i -> out.put(tag + "-" + i, new KeyedRecords.Expected(0, "value-of-" + tag + "-" + i)));
        return out;
    }

    private static ProducerRecord<String, String> record(String key) {
        return new ProducerRecord<>(TOPIC, 0, key, "value-of-" + key);
    }

    private static FetchResponseData.PartitionData consumerFetch(
            ReplicatedPartition partition, String address, long offset) throws Exception {
        FetchResponse response = RawConnection.once(
                address,
                SETTLE,
                ReplicationRequests.fetch(
                        TOPIC,
                        partition.topicId(),
                        ReplicationRequests.CONSUMER,
                        ReplicationRequests.NO_EPOCH,
                        offset,
                        ReplicationRequests.NO_EPOCH,
                        0),
                ApiKeys.FETCH,
                ReplicationRequests.FETCH_VERSION);
        return ReplicationRequests.partition(response);
    }

    private static void assertReadOnlyBelowHighWatermark(FetchResponseData.PartitionData fetched) {
        assertEquals(Errors.NONE, Errors.forCode(fetched.errorCode()), "consumer fetch at the leader");
        for (long offset : ReplicationRequests.records(fetched).keySet()) {
            assertTrue(
                    offset < fetched.highWatermark(),
                    "a consumer fetch returned offset " + offset + " at or past the high watermark "
                            + fetched.highWatermark());
        }
    }

    private long latestOffset(ReplicatedPartition partition) throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            return admin.listOffsets(Map.of(partition.topicPartition(), OffsetSpec.latest()))
                    .all()
                    .get(ClusterClients.REQUEST_TIMEOUT_MS * 3L, TimeUnit.MILLISECONDS)
                    .get(partition.topicPartition())
                    .offset();
        }
    }
}
