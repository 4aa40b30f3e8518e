package io.sluice.broker.replica;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.cluster.state.PartitionState;
import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.AlterPartitionRequestData;
import org.apache.kafka.common.message.AlterPartitionResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An AlterPartition answer ends only the ISR change it answers, not one the leader proposed after it. */
class IsrChangeAnswerTest {
    private static final int SELF = 1;
    private static final int LEADER_EPOCH = 7;
    private static final int[] REPLICAS = {1, 2, 3, 4};

    @TempDir
    Path dir;

    private PartitionLog log;
    private Partition partition;
    private final IsrChangeSender sender = new IsrChangeSender(SELF, null, null, 100);

    @BeforeEach
    void lead() throws Exception {
        log = PartitionLog.open(dir.resolve("t-0"), LogConfig.builder().build(), new RecoveryReport());
        partition = new Partition(
                new TopicInfo("t", Uuid.randomUuid(), 1, Map.of()),
                0,
                log,
                TopicConfigs.resolve(BrokerConfig.fromMap(Map.of()), Map.of()),
                new PartitionState(REPLICAS, SELF, LEADER_EPOCH, new int[] {1, 2}, 5),
                SELF,
                0);
        partition.assign(new PartitionState(REPLICAS, SELF, LEADER_EPOCH, new int[] {1, 2}, 5), 0);
    }

    @AfterEach
    void close() throws Exception {
        log.close();
    }

    @Test
    void shouldKeepALaterExpansionInFlightWhenAnEarlierOnesAnswerComesAfterThePublishedState() throws Exception {
        LeaderState state = partition.leaderState();
        state.onFollowerFetch(2, 3, 3, 0, 10);
        int[] addThree = state.onFollowerFetch(3, 3, 3, 3, 10);
        assertArrayEquals(new int[] {1, 2, 3}, addThree);
        // The published state commits the expansion before its AlterPartition answer arrives.
        partition.assign(new PartitionState(REPLICAS, SELF, LEADER_EPOCH, new int[] {1, 2, 3}, 6), 20);
        int[] addFour = state.onFollowerFetch(4, 3, 3, 3, 30);
        assertArrayEquals(new int[] {1, 2, 3, 4}, addFour);
        state.onFollowerFetch(2, 5, 5, 3, 40);
        state.onFollowerFetch(3, 5, 5, 3, 40);

        sender.applyAnswer(partition, state, addThree, 2, accepted(new int[] {1, 2, 3}, 6));

        assertTrue(state.hasPendingChange(), "adding 4 is still in flight");
        assertArrayEquals(new int[] {1, 2, 3, 4}, state.maximalIsr());
        assertEquals(3, state.highWatermarkCandidate(5), "4, at 3, still holds the high watermark back");
    }

    @Test
    void shouldNotSendAProposalTheCommittedIsrReplacedWhileItWaited() throws Exception {
        LeaderState state = partition.leaderState();
        int[] addThree = state.onFollowerFetch(3, 3, 3, 0, 10);
        List<IsrChangeSender.Proposal> batch =
                new ArrayList<>(List.of(new IsrChangeSender.Proposal(partition, state, addThree, 2)));
        AlterPartitionRequestData.PartitionData sent = IsrChangeSender.request(SELF, batch)
                .topics()
                .get(0)
                .partitions()
                .get(0);
        assertEquals(5, sent.partitionEpoch(), "the epoch the proposal was computed against");
        assertEquals(List.of(1, 2, 3), sent.newIsr());

        // Queued behind a request in flight (or waiting to be resent), the proposal sees broker 2 bounce: the
        // controller publishes the ISR without it under partition epoch 6.
        partition.assign(new PartitionState(REPLICAS, SELF, LEADER_EPOCH, new int[] {1}, 6), 20);
        AlterPartitionRequestData stale = IsrChangeSender.request(SELF, batch);

        assertEquals(List.of(), stale.topics(), "sent under epoch 6, it would put broker 2 back unchecked");
        assertEquals(List.of(), batch, "nothing left to send");
    }

    @Test
    void shouldCountEveryAnswerWithAnErrorAsAFailedIsrUpdate() {
        java.util.concurrent.atomic.AtomicInteger failed = new java.util.concurrent.atomic.AtomicInteger();
        sender.listenWith(new IsrChangeListener() {
            @Override
            public void onIsrChanged(int before, int after) {}

            @Override
            public void onIsrChangeFailed() {
                failed.incrementAndGet();
            }
        });
        LeaderState state = partition.leaderState();
        int[] addThree = state.onFollowerFetch(3, 3, 3, 0, 10);
        sender.applyAnswer(partition, state, addThree, 2, refused(Errors.INELIGIBLE_REPLICA));
        assertEquals(1, failed.get());
        assertTrue(!state.hasPendingChange(), "a refused change ends");
        int[] again = state.onFollowerFetch(3, 3, 3, 0, 20);
        sender.applyAnswer(partition, state, again, 2, refused(Errors.FENCED_LEADER_EPOCH));
        assertEquals(2, failed.get(), "a fenced answer failed too");
        sender.applyAnswer(partition, state, again, 2, accepted(new int[] {1, 2, 3}, 6));
        assertEquals(2, failed.get(), "an accepted change is no failure");
    }

    private static AlterPartitionResponseData.PartitionData refused(Errors error) {
        return new AlterPartitionResponseData.PartitionData()
                .setErrorCode(error.code())
                .setLeaderEpoch(LEADER_EPOCH)
                .setPartitionEpoch(5);
    }

    private static AlterPartitionResponseData.PartitionData accepted(int[] isr, int partitionEpoch) {
        return new AlterPartitionResponseData.PartitionData()
                .setErrorCode(Errors.NONE.code())
                .setLeaderEpoch(LEADER_EPOCH)
                .setPartitionEpoch(partitionEpoch)
                .setIsr(java.util.Arrays.stream(isr).boxed().toList());
    }
}
