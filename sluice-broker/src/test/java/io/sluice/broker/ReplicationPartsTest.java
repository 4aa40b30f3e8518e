package io.sluice.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.ForwardingConfig;
import io.sluice.broker.replica.HighWatermarkCheckpoint;
import io.sluice.broker.topic.TopicManager;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.log.LogManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.ControlledShutdownRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplicationPartsTest {
    /** Each differs from its key's default, so a part built from the defaults instead of the broker's config shows. */
    private static final long LAG_TIME_MAX_MS = 40_000;

    private static final long CHECKPOINT_INTERVAL_MS = 70_000;
    private static final long FORWARD_WAIT_MS = 12_345;
    /** Timer delays are compared to this grain: a test on a busy machine may read them seconds late. */
    private static final long COARSE_MS = 5_000;

    @TempDir
    Path dataDir;

    private BrokerConfig config;
    private LogManager logs;
    private TopicManager topics;

    @BeforeEach
    void setUp() {
        config = BrokerConfig.fromMap(Map.of(
                "broker.id", "7",
                "log.dirs", dataDir.toString(),
                "listeners", "PLAINTEXT://127.0.0.1:0",
                "replica.lag.time.max.ms", Long.toString(LAG_TIME_MAX_MS),
                "replica.high.watermark.checkpoint.interval.ms", Long.toString(CHECKPOINT_INTERVAL_MS),
                "sluice.controller.forward.wait.ms", Long.toString(FORWARD_WAIT_MS)));
        logs = LogManagerFactory.create(config, topic -> null);
        topics = new TopicManager(config, logs);
    }

    @AfterEach
    void tearDown() throws Exception {
        logs.close();
    }

    @Test
    void shouldRunReplicationOnTheBrokersSettings() {
        StartedParts started = new StartedParts();
        ReplicationParts replication = ReplicationParts.start(config, logs, topics, () -> null, started);
        try {
            assertEquals(
                    ForwardingConfig.of(config), replication.controllerChannel().forwarding());
            // Besides the expiry of abandoned moves (every second), the replication timer runs the ISR check (every
            // replica.lag.time.max.ms / 2) and the high-watermark checkpoint.
            assertEquals(
                    List.of(LAG_TIME_MAX_MS / 2, CHECKPOINT_INTERVAL_MS),
                    slowTaskDelaysMs(replication),
                    "the delays of the replication timer's slower tasks");
        } finally {
            started.stopAll();
        }
    }

    @Test
    void shouldStopEveryPartBeforeThoseStartedEarlierWhenAFailedBrokerStartStopsWhatItStarted() throws Exception {
        StartedParts started = new StartedParts();
        List<String> seenByTheEarlierPart = new ArrayList<>();
        ReplicationParts[] parts = new ReplicationParts[1];
        started.add(() -> seenByTheEarlierPart.add(stateOf(parts[0])));
        parts[0] = ReplicationParts.start(config, logs, topics, () -> null, started);
        ReplicationParts replication = parts[0];
        List<String> seenByTheLaterPart = new ArrayList<>();
        started.add(() -> seenByTheLaterPart.add(stateOf(replication)));

        started.stopAll();

        assertEquals(List.of("timer running, no checkpoint"), seenByTheLaterPart, "a part started after them");
        assertEquals(List.of("timer stopped, checkpoint written"), seenByTheEarlierPart, "a part started before them");
        assertControllerChannelClosed(replication);
        assertRoomCheckClosed(replication);
    }

    @Test
    void shouldStopReplicatingButLeaveTheSharedTimerToTheBrokerWhenClosed() throws Exception {
        StartedParts started = new StartedParts();
        ReplicationParts replication = ReplicationParts.start(config, logs, topics, () -> null, started);
        try {
            assertEquals(
                    "no controller is known",
                    failureOf(sendToController(replication)).getMessage(),
                    "the open channel, no controller known yet");

            replication.close();

            assertControllerChannelClosed(replication);
            assertRoomCheckClosed(replication);
            assertTrue(Files.exists(checkpointFile()), "the replica manager wrote no last checkpoint when closed");
            // The broker's other periodic tasks (quota expiry, network idle sampling, log gauges) run on it until the
            // broker shuts its schedulers down, after leaving the cluster; the replica manager's own tasks stop.
            assertFalse(replication.timer().isShutdown(), "closing the replication parts shut the shared timer down");
            assertEquals(List.of(), slowTaskDelaysMs(replication), "the replica manager's tasks left on the timer");
        } finally {
            started.stopAll();
        }
    }

    private String stateOf(ReplicationParts replication) {
        return (replication.timer().isShutdown() ? "timer stopped" : "timer running")
                + (Files.exists(checkpointFile()) ? ", checkpoint written" : ", no checkpoint");
    }

    private Path checkpointFile() {
        return dataDir.resolve(HighWatermarkCheckpoint.FILE_NAME);
    }

    /**
     * The delay of each task queued on the replication timer that runs less often than every {@value #COARSE_MS} ms,
     * to the nearest {@value #COARSE_MS} ms (a slow test machine), shortest first.
     */
    private static List<Long> slowTaskDelaysMs(ReplicationParts replication) {
        return replication.timer().getQueue().stream()
                .map(task ->
                        Math.round(((Delayed) task).getDelay(TimeUnit.MILLISECONDS) / (double) COARSE_MS) * COARSE_MS)
                .filter(delayMs -> delayMs >= COARSE_MS)
                .sorted()
                .toList();
    }

    private static CompletableFuture<?> sendToController(ReplicationParts replication) {
        return replication
                .controllerChannel()
                .send(
                        ApiKeys.CONTROLLED_SHUTDOWN,
                        ApiKeys.CONTROLLED_SHUTDOWN.latestVersion(),
                        new ControlledShutdownRequestData().setBrokerId(7),
                        readable -> readable);
    }

    private static void assertControllerChannelClosed(ReplicationParts replication) throws Exception {
        Throwable failure = failureOf(sendToController(replication));
        assertInstanceOf(IOException.class, failure);
        assertEquals("controller channel closed", failure.getMessage());
    }

    private static void assertRoomCheckClosed(ReplicationParts replication) throws Exception {
        CompletableFuture<Map<PartitionRef, String>> check =
                replication.roomCheck().refusals(ClusterState.EMPTY, Map.of());
        Throwable failure = failureOf(check);
        assertInstanceOf(IOException.class, failure, "the room check still takes checks");
        assertEquals("reassignment room check closed", failure.getMessage());
    }

    private static Throwable failureOf(CompletableFuture<?> future) throws Exception {
        return assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS))
                .getCause();
    }
}
