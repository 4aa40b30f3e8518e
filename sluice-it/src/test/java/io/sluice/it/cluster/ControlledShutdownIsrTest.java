package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.testkit.Poll;
import io.sluice.testkit.SluiceBrokerProcess;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A broker in controlled shutdown is not proposed for an ISR (KIP-841). Broker 3 follows {@code kept} (replicas 1, 3;
 * broker 1 leads, an acks=all producer writes all along) and alone leads {@code stuck} (replicas 3, 2, broker 2
 * stopped), so its controlled shutdown cannot move that leadership and retries for seconds while its follower of
 * {@code kept} stays caught up. The controller takes it out of kept's ISR and marks it shutting down in the cluster
 * state; broker 1 must then never propose it back (each proposal would be refused as INELIGIBLE_REPLICA and proposed
 * again on the next fetch: broker 1's FailedIsrUpdatesPerSec counts them), and no acknowledged record may be lost.
 */
class ControlledShutdownIsrTest extends ClusterTestBase {
    private static final String KEPT = "kept";
    private static final String STUCK = "stuck";
    private static final String FAILED_ISR_UPDATES = "kafka_server_replicamanager_failedisrupdates_total";
    private static final int ACKS_PER_STEP = 200;

    @Override
    List<String> brokerOverrides() {
        List<String> settings = new ArrayList<>(replicationSettings(6000));
        // 20 retries 500 ms apart: the shutdown keeps asking until its own 15 s bound.
        settings.add("controlled.shutdown.max.retries=20");
        settings.add("sluice.http.listener=0");
        return settings;
    }

    @Test
    void shouldNotProposeAFollowerInControlledShutdownForTheIsrNorLoseAnAcknowledgedRecord() throws Exception {
        ReplicatedPartition kept = ReplicatedPartition.createOn(cluster, KEPT, List.of(1, 3), Map.of());
        ReplicatedPartition stuck = ReplicatedPartition.createOn(cluster, STUCK, List.of(3, 2), Map.of());
        assertTrue(cluster.broker(2).stop(), "broker 2 exited by itself after SIGTERM");
        stuck.awaitState("broker 3 alone in sync", p -> p.leader() == 3 && Arrays.equals(p.isr(), new int[] {3}));
        String leaderHttp = BrokerHttp.base(cluster.probe().state(), 1);

        AckedProducer producer = new AckedProducer(cluster.bootstrap(), KEPT, "k", "all").start();
        CompletableFuture<Boolean> stopping = null;
        try {
            awaitMoreAcks(producer);
            assertEquals(0, BrokerHttp.metric(leaderHttp, FAILED_ISR_UPDATES), "no refused ISR change before");

            SluiceBrokerProcess three = cluster.broker(3);
            stopping = CompletableFuture.supplyAsync(() -> {
                try {
                    return three.stop();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            });
            ClusterState marked = cluster.probe()
                    .awaitState(
                            "broker 3 in controlled shutdown, out of kept's ISR, still registered",
                            SETTLE,
                            s -> s.isShuttingDown(3)
                                    && s.topic(KEPT) != null
                                    && Arrays.equals(s.topic(KEPT).partition(0).isr(), new int[] {1}));
            assertTrue(marked.hasBroker(3));
            // Broker 3 keeps fetching kept-0 from broker 1 while it retries its shutdown; records keep coming.
            awaitMoreAcks(producer);
            assertTrue(stopping.get(SETTLE.toMillis(), TimeUnit.MILLISECONDS), "broker 3 exited by itself");
            PartitionState afterShutdown = kept.state();
            assertArrayEquals(new int[] {1}, afterShutdown.isr(), "broker 3 never went back into the ISR");
            assertEquals(
                    0,
                    BrokerHttp.metric(leaderHttp, FAILED_ISR_UPDATES),
                    "broker 1 proposed no ISR the controller refused");

            cluster.broker(3).restart();
            cluster.broker(2).restart();
            kept.awaitFullIsrAfter(afterShutdown);
            assertTrue(!cluster.probe().state().isShuttingDown(3), "a new registration ends the mark");
            awaitMoreAcks(producer);
        } finally {
            producer.stop(SETTLE);
            if (stopping != null) {
                stopping.join();
            }
        }
        assertEquals(List.of(), producer.firstNonRetriable(5), "non-retriable errors at the producer");
        producer.assertEveryAckedKeyReadOnce(kept.readAll());
        kept.awaitIdenticalReplicas(List.of(1, 3));
    }

    private static void awaitMoreAcks(AckedProducer producer) throws Exception {
        int before = producer.ackedCount();
        Poll.until(
                ACKS_PER_STEP + " more acknowledgements",
                SETTLE,
                producer::ackedCount,
                n -> n >= before + ACKS_PER_STEP);
    }
}
