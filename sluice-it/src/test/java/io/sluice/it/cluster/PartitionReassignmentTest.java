package io.sluice.it.cluster;

import org.junit.jupiter.api.Test;

/**
 * Partition moves the Sluice way (the default): a new replica starts from an in-sync replica's segment files, then
 * fetches the tail. Every scenario of {@link ReassignmentScenarios}: a move under load with Kafka's tool, a cancel,
 * the target killed, the source killed.
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
}
