package io.sluice.broker.move;

import static io.sluice.broker.move.MoveFixtures.LEADER_EPOCH;
import static io.sluice.broker.move.MoveFixtures.PARTITION;
import static io.sluice.broker.move.MoveFixtures.START_MS;
import static io.sluice.broker.move.MoveFixtures.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.MoveConfig;
import io.sluice.broker.move.MoveFixtures.Source;
import io.sluice.broker.security.ListenerSecurity;
import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.compress.Compression;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A throttled move ships chunks of about a second's worth of the throttle, whichever side throttles: a chunk of
 * {@code sluice.move.chunk.bytes} at a low rate would hold its answer longer than the target's read timeout.
 */
class ThrottledChunkTest extends MoveTestBase {
    /** Bytes per second of the throttle: a second's worth is half a segment. */
    private static final long RATE = 256 * 1024;

    private static final int SEGMENT_BYTES = 512 * 1024;

    /** Two closed segments of incompressible records and an active one. */
    private PartitionLog bigSegmentSource() throws Exception {
        LogConfig config = LogConfig.builder()
                .segmentBytes(SEGMENT_BYTES)
                .indexIntervalBytes(4096)
                .fileDeleteDelayMs(0)
                .build();
        PartitionLog log = closing(PartitionLog.open(
                root.resolve("source").resolve(TOPIC + "-" + PARTITION),
                config,
                new RecoveryReport(),
                0L,
                0L,
                () -> START_MS));
        for (int i = 0; log.segmentCount() < 3; i++) {
            log.appendAsLeader(MoveFixtures.batch(Compression.NONE, START_MS + i, 8, 1000), 0, START_MS);
        }
        return log;
    }

    @ParameterizedTest(name = "throttled at the source: {0}")
    @ValueSource(booleans = {true, false})
    void shouldCutChunksToASecondOfTheThrottle(boolean atSource) throws Exception {
        PartitionLog source = bigSegmentSource();
        MoveConfig config = MoveFixtures.moveConfig().withChunkBytes(4 * SEGMENT_BYTES);
        ByteRateLimiter throttle = new FixedByteRateLimiter(RATE);
        Source server = closing(new Source(
                source,
                config,
                new AtomicLong(START_MS),
                ListenerSecurity.plaintext("PLAINTEXT"),
                atSource ? throttle : ByteRateLimiter.UNLIMITED));
        PartitionLog target = emptyTarget();
        TransferProgress progress = new TransferProgress();

        new MoveTransferClient(config, atSource ? ByteRateLimiter.UNLIMITED : throttle)
                .bootstrap(target, TOPIC, PARTITION, List.of(server.address()), LEADER_EPOCH, progress);

        long boundary = boundaryOf(source);
        MoveFixtures.assertSegmentsIdentical(source, target, boundary);
        assertEquals(TransferPhase.DONE, progress.phase());
        long secondsOfThrottle = (progress.totalBytes() + RATE - 1) / RATE;
        assertTrue(
                progress.chunksVerified() >= secondsOfThrottle,
                "chunks of at most a second of the throttle: " + progress);
    }
}
