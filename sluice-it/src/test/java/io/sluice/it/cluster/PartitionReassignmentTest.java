package io.sluice.it.cluster;

import org.junit.jupiter.api.Test;

/**
 * Partition moves the Sluice way (the default): a new replica starts from an in-sync replica's segment files, then
 * fetches the tail. Every scenario of {@link ReassignmentScenarios}: a move under load with Kafka's tool, a cancel,
 * the target killed, the source killed; and the new replica killed right after the move, before its copied files are
 * known to be on its disk.
 */
class PartitionReassignmentTest extends ReassignmentScenarios {

    @Override
    boolean fileTransfer() {
        return true;
    }

    @Test
    void shouldMoveAPartitionOffItsLeaderWhileItIsWrittenWithKafkasTool() throws Exception {
        scenarioMoveAPartitionOffItsLeaderWhileItIsWrittenWithKafkasTool();
    }

    @Test
    void shouldCancelAMoveAndLeaveTheOriginalReplicasServing() throws Exception {
        scenarioCancelAMoveAndLeaveTheOriginalReplicasServing();
    }

    @Test
    void shouldFinishTheMoveWhenItsTargetIsKilledAndRestarted() throws Exception {
        scenarioFinishTheMoveWhenItsTargetIsKilledAndRestarted();
    }

    @Test
    void shouldFinishTheMoveFromTheOtherInSyncReplicaWhenTheSourceIsKilled() throws Exception {
        scenarioFinishTheMoveFromTheOtherInSyncReplicaWhenTheSourceIsKilled();
    }

    @Test
    void shouldRecoverTheNewReplicaKilledRightAfterTheMove() throws Exception {
        scenarioRestartTheNewReplicaKilledRightAfterTheMove();
    }
}
