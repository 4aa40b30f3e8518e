package io.sluice.broker.move;

import static io.sluice.broker.move.MoveFixtures.LEADER_EPOCH;
import static io.sluice.broker.move.MoveFixtures.PARTITION;
import static io.sluice.broker.move.MoveFixtures.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.broker.move.MoveFixtures.Source;
import io.sluice.broker.security.ClientSecurity;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.cluster.state.PartitionState;
import io.sluice.log.PartitionLog;
import io.sluice.testkit.Poll;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The move threads of a target broker against a real source: a replica followed again (a leader change) or added
 * again (a re-submitted reassignment) while its cancelled transfer still ends. The first transfer's rate limiter holds
 * its thread inside the first chunk until the test lets go, so its teardown lasts exactly as long as the test wants.
 */
class MoveTargetsTest extends MoveTestBase {
    private static final int SELF = 3;
    /** Replicas [1, 2, 3] led by 1, broker 3 being added. */
    private static final PartitionState ADDING =
            new PartitionState(new int[] {1, 2, 3}, 1, LEADER_EPOCH, new int[] {1, 2}, 7, new int[] {3}, new int[0]);

    private static final Duration WAIT = Duration.ofSeconds(60);

    private final TopicInfo topic = new TopicInfo(TOPIC, Uuid.randomUuid(), PARTITION + 1, Map.of());
    private final CountDownLatch inFirstChunk = new CountDownLatch(1);
    private final CountDownLatch letGo = new CountDownLatch(1);
    private final AtomicInteger limitersMade = new AtomicInteger();

    private MoveTargets targets() {
        return closing(new MoveTargets(
                SELF,
                MoveFixtures.moveConfig(),
                partition -> limitersMade.getAndIncrement() == 0 ? this::holdFirstChunk : ByteRateLimiter.UNLIMITED,
                ClientSecurity.plaintext()));
    }

    private long holdFirstChunk(long bytes) {
        inFirstChunk.countDown();
        try {
            letGo.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private Partition adding(PartitionLog log) throws Exception {
        Partition partition = new Partition(
                topic, PARTITION, log, TopicConfigs.resolve(BrokerConfig.fromMap(Map.of()), Map.of()), ADDING, SELF, 0);
        partition.assign(ADDING, 0);
        return partition;
    }

    /** What the replica manager does when the partition becomes a follower here. */
    private static void follow(
            MoveTargets targets, Partition partition, List<InetSocketAddress> sources, AtomicInteger followed) {
        if (!targets.isRunning(partition) && targets.wants(partition)) {
            targets.start(partition, sources, followed::incrementAndGet);
        }
    }

    /**
     * @param addedAgain the replica was removed (its log closed and its directory renamed, as the log manager deletes
     *                   it) and added again with a new, empty log in the same place; else it was followed again
     */
    @ParameterizedTest(name = "added again: {0}")
    @ValueSource(booleans = {false, true})
    void shouldCopyTheFilesForARequestMadeWhileACancelledTransferStillEnds(boolean addedAgain) throws Exception {
        PartitionLog sourceLog = source("source");
        Source server = server(sourceLog);
        List<InetSocketAddress> sources = List.of(server.address());
        MoveTargets targets = targets();
        PartitionLog firstLog = emptyTarget();
        Partition first = adding(firstLog);
        AtomicInteger firstFollowed = new AtomicInteger();
        AtomicInteger secondFollowed = new AtomicInteger();

        follow(targets, first, sources, firstFollowed);
        assertTrue(inFirstChunk.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the first transfer is receiving");
        targets.cancel(first); // the replica was removed, or this broker became the leader: returns at once
        Partition second = first;
        if (addedAgain) {
            firstLog.close();
            Files.move(targetDir(), targetDir().resolveSibling(targetDir().getFileName() + ".removed-delete"));
            second = adding(closing(MoveFixtures.openLog(targetDir())));
        }
        follow(targets, second, sources, secondFollowed);
        assertTrue(targets.isRunning(second), "the follower fetch waits for the transfer asked for");
        letGo.countDown();

        Poll.until("the partition follows after its files are in", WAIT, secondFollowed::get, n -> n == 1);
        assertEquals(boundaryOf(sourceLog), second.log().logEndOffset());
        MoveFixtures.assertSegmentsIdentical(sourceLog, second.log(), boundaryOf(sourceLog));
        assertEquals(0, firstFollowed.get(), "the cancelled transfer does not continue");
        assertFalse(Files.exists(StagingArea.dirOf(targetDir())));
        Poll.until("both transfers released their pins", WAIT, server.source::activeTransfers, n -> n == 0);
    }

    @Test
    void shouldDropARequestQueuedBehindACancelledTransferWhenCancelledToo() throws Exception {
        Source server = server(source("source"));
        List<InetSocketAddress> sources = List.of(server.address());
        MoveTargets targets = targets();
        PartitionLog log = emptyTarget();
        Partition partition = adding(log);
        AtomicInteger followed = new AtomicInteger();

        follow(targets, partition, sources, followed);
        assertTrue(inFirstChunk.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the first transfer is receiving");
        targets.cancel(partition);
        follow(targets, partition, sources, followed);
        targets.cancel(partition); // a later cancel wins over the request queued before it
        assertFalse(targets.isRunning(partition));
        letGo.countDown();

        // a queued transfer that started anyway would hold the registry until it ended, and then follow
        Poll.until("the cancelled transfer ended", WAIT, () -> targets.progress(TOPIC, PARTITION), p -> p == null);
        assertEquals(0, followed.get());
        assertEquals(0, log.logEndOffset());
        assertFalse(Files.exists(StagingArea.dirOf(targetDir())));
    }

    /**
     * Staging of a transfer that runs is its own; staging no transfer will resume (here: left by a crash after the
     * install and before its removal, so the log is not empty) goes when the partition follows without a transfer.
     */
    @Test
    void shouldDiscardStagingNoTransferWillResumeAndLeaveARunningTransfersAlone() throws Exception {
        PartitionLog sourceLog = source("source");
        Source server = server(sourceLog);
        MoveTargets targets = targets();
        Partition partition = adding(emptyTarget());
        AtomicInteger followed = new AtomicInteger();
        Path staging = StagingArea.dirOf(targetDir());

        follow(targets, partition, List.of(server.address()), followed);
        assertTrue(inFirstChunk.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the transfer is receiving");
        targets.discardStaging(partition);
        assertTrue(Files.exists(staging.resolve(StagingArea.MANIFEST_FILE)), "a running transfer owns its staging");
        letGo.countDown();
        Poll.until("the partition follows after its files are in", WAIT, followed::get, n -> n == 1);
        assertEquals(boundaryOf(sourceLog), partition.log().logEndOffset());

        Files.createDirectories(staging);
        Files.write(staging.resolve("00000000000000000000.log"), new byte[100]);
        assertFalse(targets.wants(partition));
        targets.discardStaging(partition);

        assertFalse(Files.exists(staging));
    }
}
