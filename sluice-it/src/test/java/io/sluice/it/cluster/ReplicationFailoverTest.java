package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sluice.testkit.PartitionDirectory;
import io.sluice.testkit.Poll;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;

/**
 * Replication under faults, brokers in their own JVMs: a topic with replication factor 3 and min.insync.replicas=2
 * written by an idempotent acks=all producer while the partition's leader is killed (SIGKILL) and restarted. Every
 * acknowledged record must be readable exactly once afterwards, the restarted broker must rejoin the ISR, and the
 * three replicas' logs must end byte-identical.
 */
class ReplicationFailoverTest extends ClusterTestBase {
    private static final String TOPIC = "replicated";
    private static final int BATCH_OF_ACKS = 1_500;

    @Override
    List<String> brokerOverrides() {
        return List.of("replica.lag.time.max.ms=6000", "replica.fetch.wait.max.ms=200",
                "replica.high.watermark.checkpoint.interval.ms=500", "controlled.shutdown.retry.backoff.ms=500");
    }

    @Test
    void shouldKeepEveryAcknowledgedRecordWhenTheLeaderIsKilledAndRestarted() throws Exception {
        try (Admin admin = ClusterClients.admin(cluster.bootstrap())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3)
                    .configs(Map.of("min.insync.replicas", "2")))).all().get(60, TimeUnit.SECONDS);
            awaitIsr(admin, 3);
            AckedProducer producer = new AckedProducer(cluster.bootstrap(), TOPIC, "k", "all").start();
            try {
                Poll.until("the first acknowledgements", SETTLE, producer::ackedCount, n -> n >= BATCH_OF_ACKS);
                int oldLeader = describe(admin).leader().id();
                cluster.broker(oldLeader).kill9();
                int newLeader = Poll.until("a new leader after broker " + oldLeader + " was killed",
                        cluster.sessionTimeout().plus(SETTLE), () -> leaderOf(admin),
                        id -> id != oldLeader && id != ClusterClients.NO_LEADER);
                int ackedAtFailover = producer.ackedCount();
                Poll.until("acknowledgements from the new leader " + newLeader, SETTLE, producer::ackedCount,
                        n -> n >= ackedAtFailover + BATCH_OF_ACKS);
                cluster.broker(oldLeader).restart();
                awaitIsr(admin, 3);
            } finally {
                producer.stop(SETTLE);
            }
            assertEquals(List.of(), producer.firstNonRetriable(5), "non-retriable errors at the producer");
            assertEveryAckedRecordReadOnce(producer);
            awaitIdenticalReplicas();
        }
    }

    private void assertEveryAckedRecordReadOnce(AckedProducer producer) {
        TopicPartition tp = new TopicPartition(TOPIC, 0);
        try (KafkaConsumer<String, String> consumer = ClusterClients.assignConsumer(cluster.bootstrap())) {
            List<ConsumerRecord<String, String>> read = KeyedRecords.readAll(consumer, List.of(tp), SETTLE);
            Map<String, Long> offsets = new HashMap<>();
            Set<String> sent = producer.sent();
            for (ConsumerRecord<String, String> r : read) {
                Long earlier = offsets.put(r.key(), r.offset());
                if (earlier != null) {
                    fail("key " + r.key() + " read twice, at offsets " + earlier + " and " + r.offset());
                }
                assertTrue(sent.contains(r.key()), "read a key never sent: " + r.key());
                assertEquals("value-of-" + r.key(), r.value());
            }
            for (String key : producer.acked()) {
                assertTrue(offsets.containsKey(key), () -> "acknowledged key " + key + " was lost; read " + read.size()
                        + " records, " + producer.acked().size() + " acknowledged");
            }
        }
    }

    /** Waits until every broker's copy of the partition holds the same bytes, then compares them. */
    private void awaitIdenticalReplicas() throws Exception {
        Poll.until("the three replicas' logs to be byte-identical", SETTLE, this::replicaBytes,
                copies -> copies.values().stream().map(b -> b.length).distinct().count() == 1);
        Map<Integer, byte[]> copies = replicaBytes();
        byte[] first = copies.get(1);
        assertTrue(first.length > 0, "the partition holds records");
        for (Map.Entry<Integer, byte[]> copy : copies.entrySet()) {
            assertArrayEquals(first, copy.getValue(), "log of broker " + copy.getKey() + " against broker 1");
        }
    }

    private Map<Integer, byte[]> replicaBytes() throws Exception {
        Map<Integer, byte[]> copies = new HashMap<>();
        for (int id : cluster.brokerIds()) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (Path segment : new PartitionDirectory(cluster.brokerDir(id), TOPIC, 0).segments()) {
                bytes.write(Files.readAllBytes(segment));
            }
            copies.put(id, bytes.toByteArray());
        }
        return copies;
    }

    private void awaitIsr(Admin admin, int size) throws Exception {
        Poll.until("an ISR of " + size + " for " + TOPIC + "-0", SETTLE.multipliedBy(2), () -> describe(admin),
                p -> p.isr().size() == size && p.leader() != null && !p.leader().isEmpty());
    }

    private static int leaderOf(Admin admin) throws Exception {
        Node leader = describe(admin).leader();
        return leader == null || leader.isEmpty() ? ClusterClients.NO_LEADER : leader.id();
    }

    private static TopicPartitionInfo describe(Admin admin) throws Exception {
        TopicDescription d = admin.describeTopics(List.of(TOPIC)).allTopicNames().get(60, TimeUnit.SECONDS).get(TOPIC);
        return d.partitions().get(0);
    }

}
