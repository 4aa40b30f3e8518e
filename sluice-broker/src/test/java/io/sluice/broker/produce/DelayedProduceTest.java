package io.sluice.broker.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.cluster.state.PartitionState;
import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An acks=all append on a real partition log led by this broker (1) with a follower (2): what a new leader epoch, a
 * lost leadership and an expansion in flight do to it.
 */
class DelayedProduceTest {
    private static final int SELF = 1;
    private static final int FOLLOWER = 2;
    private static final long TIMEOUT_MS = 60_000;

    @TempDir
    Path dir;

    private PartitionLog log;
    private Partition partition;
    private ScheduledExecutorService timer;

    @BeforeEach
    void lead() throws Exception {
        log = PartitionLog.open(dir.resolve("t-0"), LogConfig.builder().build(), new RecoveryReport());
        partition = new Partition(
                new TopicInfo("t", Uuid.randomUuid(), 1, Map.of()),
                0,
                log,
                TopicConfigs.resolve(BrokerConfig.fromMap(Map.of()), Map.of("min.insync.replicas", "2")),
                new PartitionState(new int[] {SELF, FOLLOWER}, SELF, 5, new int[] {SELF, FOLLOWER}),
                SELF,
                0);
        timer = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterEach
    void close() throws Exception {
        timer.shutdownNow();
        log.close();
    }

    private void assign(int leader, int leaderEpoch, int... isr) throws Exception {
        Partition.Transition transition =
                partition.assign(new PartitionState(new int[] {SELF, FOLLOWER}, leader, leaderEpoch, isr), 0);
        if (transition != Partition.Transition.NONE) {
            partition.notifyRoleChanged();
        }
    }

    /** Appends one record as leader and waits for the ISR to hold it. */
    private CompletableFuture<Errors> appendAndWait() throws Exception {
        int epoch = partition.leaderEpoch();
        log.appendAsLeader(
                MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("v".getBytes(StandardCharsets.UTF_8)))
                        .buffer(),
                epoch,
                0);
        return new DelayedProduce(partition, log.logEndOffset(), epoch, 2).start(timer, TIMEOUT_MS);
    }

    private void followerFetchesTo(long offset) {
        partition.leaderState().onFollowerFetch(FOLLOWER, offset, log.logEndOffset(), partition.highWatermark(), 0);
        partition.maybeAdvanceHighWatermark();
    }

    @Test
    void shouldAcknowledgeAnAppendAcrossANewLeaderEpochWhileThisBrokerGoesOnLeading() throws Exception {
        assign(SELF, 5, SELF, FOLLOWER);
        CompletableFuture<Errors> acked = appendAndWait();

        assign(SELF, 6, SELF, FOLLOWER); // e.g. a reassignment step: same leader, next epoch
        assertFalse(acked.isDone(), "a new epoch under the same leader fails nothing: " + acked);

        followerFetchesTo(log.logEndOffset());
        assertEquals(Errors.NONE, acked.get(5, TimeUnit.SECONDS));
    }

    @Test
    void shouldFailAnAppendWhoseLeadershipWasLostEvenIfRegainedLater() throws Exception {
        assign(SELF, 5, SELF, FOLLOWER);
        CompletableFuture<Errors> lost = appendAndWait();

        assign(FOLLOWER, 6, SELF, FOLLOWER);
        assertEquals(Errors.NOT_LEADER_OR_FOLLOWER, lost.get(5, TimeUnit.SECONDS));

        assign(SELF, 7, SELF, FOLLOWER);
        assertEquals(5 < partition.leadingSinceEpoch(), true, "leading again since epoch 7");
    }

    @Test
    void shouldAdmitAgainstTheCommittedIsrNotAnExpansionInFlight() throws Exception {
        assign(SELF, 5, SELF);
        followerFetchesTo(log.logEndOffset()); // proposes ISR [1, 2]: in flight, not committed
        assertEquals(2, partition.inSyncReplicaCount(), "the maximal ISR counts the expansion");
        assertEquals(1, partition.committedInSyncReplicaCount(), "admission counts the committed ISR only");
    }
}
