package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.PartitionState;
import io.sluice.testkit.Poll;
import io.sluice.testkit.SluiceBrokerProcess;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A rolling restart under load: an idempotent acks=all producer writes to a topic with replication factor 3 and
 * min.insync.replicas=2 while each broker in turn is stopped with SIGTERM (a controlled shutdown that moves its
 * leadership away first), started again on the same data, and given until the ISR is full again before the next one
 * goes. The producer must see no error it cannot retry, every acknowledged record must be read exactly once, and the
 * three logs must end byte-identical.
 */
class RollingRestartTest extends ClusterTestBase {
    private static final String TOPIC = "rolled";
    private static final int ACKS_BETWEEN_RESTARTS = 300;

    @Override
    List<String> brokerOverrides() {
        return replicationSettings(6000);
    }

    @Test
    void shouldLoseNoAcknowledgedRecordWhenEveryBrokerIsRestartedInTurn() throws Exception {
        ReplicatedPartition partition = ReplicatedPartition.create(cluster, TOPIC, Map.of("min.insync.replicas", "2"));
        AckedProducer producer = new AckedProducer(cluster.bootstrap(), TOPIC, "k", "all").start();
        try {
            for (int id : cluster.brokerIds()) {
                int ackedBefore = producer.ackedCount();
                Poll.until(
                        "acknowledgements before broker " + id + " restarts",
                        SETTLE,
                        producer::ackedCount,
                        n -> n >= ackedBefore + ACKS_BETWEEN_RESTARTS);
                PartitionState before = partition.state();
                SluiceBrokerProcess broker = cluster.broker(id);
                assertTrue(broker.stop(), "broker " + id + " exited by itself after SIGTERM");
                broker.restart();
                partition.awaitFullIsrAfter(before);
            }
            int ackedAfterLast = producer.ackedCount();
            Poll.until(
                    "acknowledgements after the last restart",
                    SETTLE,
                    producer::ackedCount,
                    n -> n >= ackedAfterLast + ACKS_BETWEEN_RESTARTS);
        } finally {
            producer.stop(SETTLE);
        }
        assertEquals(List.of(), producer.firstNonRetriable(5), "non-retriable errors at the producer");
        producer.assertEveryAckedKeyReadOnce(partition.readAll());
        partition.awaitIdenticalReplicas();
    }
}
