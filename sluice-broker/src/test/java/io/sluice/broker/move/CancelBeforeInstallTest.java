package io.sluice.broker.move;

import static io.sluice.broker.move.MoveFixtures.LEADER_EPOCH;
import static io.sluice.broker.move.MoveFixtures.PARTITION;
import static io.sluice.broker.move.MoveFixtures.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.broker.move.MoveFixtures.Source;
import io.sluice.log.PartitionLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/**
 * A cancel that arrives once every chunk is in, while the transfer finishes its last files before the install (the
 * producer snapshot is always finished there): the transfer ends cancelled and installs nothing.
 */
class CancelBeforeInstallTest extends MoveTestBase {
    @Test
    void shouldInstallNothingWhenCancelledWhileTheLastFilesAreFinished() throws Exception {
        Source server = server(source("source"));
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();
        MoveTransferClient client = new MoveTransferClient(MoveFixtures.moveConfig(), ByteRateLimiter.UNLIMITED);
        client.faults(new ChunkFaultHook() {
            @Override
            public void beforeFinish(Path file) {
                if (file.getFileName().toString().endsWith(".snapshot")) {
                    client.cancel();
                }
            }
        });

        MoveException cancelled = assertThrows(
                MoveException.class,
                () -> client.bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress));

        assertEquals(Errors.REASSIGNMENT_IN_PROGRESS, cancelled.error());
        assertEquals(TransferPhase.CANCELLED, progress.phase());
        assertEquals(0, target.logEndOffset(), "files installed after the cancel");
        assertEquals(1, target.segmentCount());
        assertFalse(Files.exists(StagingArea.dirOf(targetDir())));
        assertEquals(0, server.source.activeTransfers());
    }
}
