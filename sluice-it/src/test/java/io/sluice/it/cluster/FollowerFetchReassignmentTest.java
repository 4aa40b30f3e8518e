package io.sluice.it.cluster;

import org.junit.jupiter.api.Test;

/**
 * The same move with the file path turned off ({@code sluice.move.file.transfer.enable=false}): the new replica
 * fetches every record, as Kafka's does, and the move still loses and repeats nothing.
 */
class FollowerFetchReassignmentTest extends ReassignmentScenarios {

    @Override
    boolean fileTransfer() {
        return false;
    }

    @Test
    void shouldMoveAPartitionByFetchingEveryRecord() throws Exception {
        scenarioMoveAPartitionOffItsLeaderWhileItIsWrittenWithKafkasTool();
    }
}
