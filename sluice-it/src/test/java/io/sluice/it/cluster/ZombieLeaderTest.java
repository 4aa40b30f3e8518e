package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.PartitionState;
import io.sluice.testkit.Poll;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchResponse;
import org.junit.jupiter.api.Test;

/**
 * The leader of a replicated partition frozen (SIGSTOP) past its ZooKeeper session while an idempotent acks=all
 * producer keeps writing: another in-sync replica takes over in a newer leader epoch. Produce requests written to the
 * frozen leader meanwhile (acks=1 and acks=all, see {@link FrozenLeader}) are appended when it resumes, still
 * believing it leads. What that zombie appends is never acknowledged to acks=all, never returned to a consumer, and
 * is truncated when it follows the new leader: every acknowledged record survives exactly once and the three logs
 * end byte-identical.
 */
class ZombieLeaderTest extends ClusterTestBase {
    private static final String TOPIC = "zombie";
    private static final int BATCH_OF_ACKS = 500;

    @Override
    List<String> brokerOverrides() {
        return replicationSettings(6000);
    }

    @Test
    void shouldTruncateWhatAFrozenLeaderAppendedAfterItsSuccessorWasElected() throws Exception {
        ReplicatedPartition partition = ReplicatedPartition.create(cluster, TOPIC, Map.of("min.insync.replicas", "2"));
        AckedProducer producer = new AckedProducer(cluster.bootstrap(), TOPIC, "k", "all").start();
        ProduceResponseData.PartitionProduceResponse acksOne;
        ProduceResponseData.PartitionProduceResponse acksAll;
        Map<Long, String> readFromZombie;
        List<String> zombieKeys;
        PartitionState before;
        PartitionState after;
        try {
            Poll.until("the first acknowledgements", SETTLE, producer::ackedCount, n -> n >= BATCH_OF_ACKS);
            before = partition.state();
            try (FrozenLeader frozen = FrozenLeader.freeze(cluster.broker(before.leader()), TOPIC, "zombie")) {
                zombieKeys = frozen.keys();
                after = partition.awaitNewLeader(before);
                int ackedAtFailover = producer.ackedCount();
                Poll.until(
                        "acknowledgements from the new leader " + after.leader(),
                        SETTLE,
                        producer::ackedCount,
                        n -> n >= ackedAtFailover + BATCH_OF_ACKS);
                acksOne = frozen.thaw();
                readFromZombie = consumerFetch(partition, before.leader(), Math.max(0, acksOne.baseOffset()));
                acksAll = frozen.acksAllAnswer();
            }
            partition.awaitFullIsrAfter(after);
        } finally {
            producer.stop(SETTLE);
        }

        assertEquals(
                Errors.NONE,
                Errors.forCode(acksOne.errorCode()),
                "precondition: the resumed broker " + before.leader()
                        + " still took the acks=1 batch as leader of epoch " + before.leaderEpoch());
        assertNotEquals(
                Errors.NONE,
                Errors.forCode(acksAll.errorCode()),
                "acks=all acknowledged by a leader whose followers had left it: " + acksAll);
        assertTrue(
                zombieKeys.stream().noneMatch(readFromZombie::containsValue),
                "the resumed broker let a consumer read past its high watermark: " + readFromZombie);
        assertEquals(List.of(), producer.firstNonRetriable(5), "non-retriable errors at the producer");
        List<ConsumerRecord<String, String>> read = partition.readAll();
        Set<String> readKeys = read.stream().map(ConsumerRecord::key).collect(Collectors.toSet());
        assertTrue(
                zombieKeys.stream().noneMatch(readKeys::contains),
                () -> "a consumer read what the zombie leader " + "appended at offset " + acksOne.baseOffset() + ": "
                        + zombieKeys);
        producer.assertEveryAckedKeyReadOnce(read);
        partition.awaitIdenticalReplicas();
    }

    /** A consumer's Fetch from {@code offset} sent to broker {@code brokerId}: the offsets and keys it returned. */
    private Map<Long, String> consumerFetch(ReplicatedPartition partition, int brokerId, long offset) throws Exception {
        FetchResponse response = RawConnection.once(
                cluster.broker(brokerId).bootstrap(),
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
        FetchResponseData.PartitionData data = ReplicationRequests.partition(response);
        return data.errorCode() == Errors.NONE.code() ? ReplicationRequests.records(data) : Map.of();
    }
}
