package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.cluster.state.PartitionState;
import io.sluice.testkit.Poll;
import java.util.List;
import java.util.Map;
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
        return replicationSettings(6000);
    }

    @Test
    void shouldKeepEveryAcknowledgedRecordWhenTheLeaderIsKilledAndRestarted() throws Exception {
        ReplicatedPartition partition = ReplicatedPartition.create(cluster, TOPIC, Map.of("min.insync.replicas", "2"));
        AckedProducer producer = new AckedProducer(cluster.bootstrap(), TOPIC, "k", "all").start();
        try {
            Poll.until("the first acknowledgements", SETTLE, producer::ackedCount, n -> n >= BATCH_OF_ACKS);
            PartitionState before = partition.state();
            cluster.broker(before.leader()).kill9();
            PartitionState after = partition.awaitNewLeader(before);
            int ackedAtFailover = producer.ackedCount();
            Poll.until(
                    "acknowledgements from the new leader " + after.leader(),
                    SETTLE,
                    producer::ackedCount,
                    n -> n >= ackedAtFailover + BATCH_OF_ACKS);
            cluster.broker(before.leader()).restart();
            partition.awaitFullIsr();
        } finally {
            producer.stop(SETTLE);
        }
        assertEquals(List.of(), producer.firstNonRetriable(5), "non-retriable errors at the producer");
        producer.assertEveryAckedKeyReadOnce(partition.readAll());
        partition.awaitIdenticalReplicas();
    }
}
