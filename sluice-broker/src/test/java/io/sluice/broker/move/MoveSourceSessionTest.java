package io.sluice.broker.move;

import static io.sluice.broker.move.MoveFixtures.CHUNK_BYTES;
import static io.sluice.broker.move.MoveFixtures.LEADER_EPOCH;
import static io.sluice.broker.move.MoveFixtures.PARTITION;
import static io.sluice.broker.move.MoveFixtures.START_MS;
import static io.sluice.broker.move.MoveFixtures.TOPIC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.MoveConfig;
import io.sluice.log.PartitionLog;
import io.sluice.testkit.Poll;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/**
 * A move source's transfers over their lifetime, called as the network layer calls it: the cap on transfers served
 * at once, a segment's pin held until the target proves it received the segment's last chunk, and a transfer whose
 * partition log left this broker or was truncated below its boundary while it ran.
 */
class MoveSourceSessionTest extends MoveTestBase {
    private final AtomicLong clock = new AtomicLong(START_MS);

    private MoveSource sourceOf(MoveSourceLogs logs, MoveConfig config) {
        return closing(new MoveSource(logs, config, ByteRateLimiter.UNLIMITED, clock::get));
    }

    private static MoveSourceLogs.Hosted hosted(PartitionLog log) {
        return log == null ? null : new MoveSourceLogs.Hosted(log, LEADER_EPOCH, log.logEndOffset());
    }

    private static short errorOf(SourceCalls target, MoveAnswer answer) {
        return target.header(answer).errorCode;
    }

    @Test
    void shouldNotServeMoreTransfersThanTheCapWhenTwoOpenAtOnce() throws Exception {
        PartitionLog log = source("source");
        CountDownLatch firstIsFinding = new CountDownLatch(1);
        CountDownLatch firstGoesOn = new CountDownLatch(1);
        AtomicInteger finds = new AtomicInteger();
        MoveSource source = sourceOf(
                (topic, partition) -> {
                    if (finds.incrementAndGet() == 1) {
                        firstIsFinding.countDown();
                        try {
                            firstGoesOn.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return hosted(log);
                },
                MoveFixtures.moveConfig().withMaxConcurrentMoves(1));
        FutureTask<MoveSegmentList> first =
                new FutureTask<>(() -> new SourceCalls(source).open(1, TOPIC, PARTITION, LEADER_EPOCH));
        FutureTask<MoveSegmentList> second =
                new FutureTask<>(() -> new SourceCalls(source).open(2, TOPIC, PARTITION, LEADER_EPOCH));
        Thread firstThread = new Thread(first, "first open");
        Thread secondThread = new Thread(second, "second open");
        firstThread.start();
        firstIsFinding.await();
        secondThread.start();
        // the second open either waits for the first or, checking the cap while the first is under way, gets past it
        Poll.until(
                "the second open is held or done",
                Duration.ofSeconds(30),
                secondThread::getState,
                state -> state == Thread.State.BLOCKED || state == Thread.State.TERMINATED);
        firstGoesOn.countDown();

        short firstError = first.get().errorCode;
        short secondError = second.get().errorCode;
        assertEquals(Errors.NONE.code(), firstError);
        assertEquals(
                Errors.THROTTLING_QUOTA_EXCEEDED.code(),
                secondError,
                "sluice.move.max.concurrent.per.broker=1: " + source.activeTransfers() + " transfers served");
        assertEquals(1, source.activeTransfers());
    }

    @Test
    void shouldEndATransferWhenThePartitionLeavesThisBroker() throws Exception {
        PartitionLog log = source("source");
        AtomicReference<PartitionLog> here = new AtomicReference<>(log);
        MoveSource source = sourceOf((topic, partition) -> hosted(here.get()), MoveFixtures.moveConfig());
        SourceCalls target = new SourceCalls(source);
        MoveSegmentList listing = target.open(1, TOPIC, PARTITION, LEADER_EPOCH);
        long first = listing.segmentBaseOffsets[0];
        assertEquals(Errors.NONE.code(), errorOf(target, target.chunk(1, first, 0, CHUNK_BYTES)));

        // the reassignment took this broker out of the replicas: the replica is closed and deleted
        here.set(null);
        log.close();

        assertEquals(
                Errors.NOT_LEADER_OR_FOLLOWER.code(),
                errorOf(target, target.chunk(1, first, CHUNK_BYTES, CHUNK_BYTES)),
                "no chunk of a closed log's files");
        assertEquals(0, source.activeTransfers(), "the transfer ended and its place is free");
    }

    @Test
    void shouldNotRejoinATransferOfALogThisBrokerNoLongerHosts() throws Exception {
        PartitionLog log = source("source");
        AtomicReference<PartitionLog> here = new AtomicReference<>(log);
        MoveSource source = sourceOf((topic, partition) -> hosted(here.get()), MoveFixtures.moveConfig());
        SourceCalls target = new SourceCalls(source);
        MoveSegmentList listing = target.open(1, TOPIC, PARTITION, LEADER_EPOCH);
        assertTrue(listing.segmentCount() > 2, listing.toString());
        target.closeConnection();

        // moved away and back while the target was disconnected: a new, empty replica
        PartitionLog again = closing(MoveFixtures.openLog(root.resolve("again").resolve(TOPIC + "-" + PARTITION)));
        here.set(again);

        MoveSegmentList rejoined = new SourceCalls(source).open(1, TOPIC, PARTITION, LEADER_EPOCH);
        assertEquals(
                Errors.NOT_LEADER_OR_FOLLOWER.code(),
                rejoined.errorCode,
                "the listing of the replaced log is not offered again: " + rejoined);
        assertEquals(0, source.activeTransfers());
    }

    /** Two chunk requests in flight per connection: the second request after an answer proves it was read. */
    private static final int IN_FLIGHT = 2;

    private static final long LONG_AFTER = START_MS + 30L * 24 * 3600 * 1000;

    /** Asks for every chunk of segment {@code index} of {@code listing}, each answered without error. */
    private static void askWhole(SourceCalls target, MoveSegmentList listing, int index) {
        for (int at = 0; at < listing.segmentSizes[index]; at += CHUNK_BYTES) {
            MoveChunkHeader h = target.header(target.chunk(1, listing.segmentBaseOffsets[index], at, CHUNK_BYTES));
            assertEquals(Errors.NONE.code(), h.errorCode, h.toString());
        }
    }

    @Test
    void shouldKeepASegmentPinnedWhileItsLastAnswersMayHaveBeenLostWithTheirConnection() throws Exception {
        PartitionLog log = source("source");
        log.updateConfig(log.config().toBuilder().retentionMs(1).build()); // and file.delete.delay.ms=0
        MoveSource source = sourceOf(
                (topic, partition) -> hosted(log), MoveFixtures.moveConfig().withChunksInFlight(IN_FLIGHT));
        SourceCalls target = new SourceCalls(source);
        MoveSegmentList listing = target.open(1, TOPIC, PARTITION, LEADER_EPOCH);
        assertTrue(listing.segmentSizes[0] > CHUNK_BYTES, "segment 0 takes more than one chunk");
        askWhole(target, listing, 0);
        assertEquals(0, log.enforceRetention(LONG_AFTER), "answered to its end, but not known to be received");

        // the connection breaks with the last answers unread: the target reconnects and asks for them again
        target.closeConnection();
        assertEquals(0, log.enforceRetention(LONG_AFTER), "still pinned once the connection is gone");
        SourceCalls again = new SourceCalls(source);
        assertEquals(Errors.NONE.code(), again.open(1, TOPIC, PARTITION, LEADER_EPOCH).errorCode);
        askWhole(again, listing, 0);
        assertEquals(1, source.activeTransfers(), "the same transfer goes on, on its first listing");
    }

    @Test
    void shouldReleaseASegmentOnceLaterRequestsProveItsAnswersRead() throws Exception {
        PartitionLog log = source("source");
        log.updateConfig(log.config().toBuilder().retentionMs(1).build()); // and file.delete.delay.ms=0
        MoveSource source = sourceOf(
                (topic, partition) -> hosted(log), MoveFixtures.moveConfig().withChunksInFlight(IN_FLIGHT));
        SourceCalls target = new SourceCalls(source);
        MoveSegmentList listing = target.open(1, TOPIC, PARTITION, LEADER_EPOCH);
        long first = listing.segmentBaseOffsets[0];
        askWhole(target, listing, 0);
        long second = listing.segmentBaseOffsets[1];
        target.header(target.chunk(1, second, 0, CHUNK_BYTES));
        assertEquals(0, log.enforceRetention(LONG_AFTER), "one request later, the last answer may still be unread");
        target.header(target.chunk(1, second, CHUNK_BYTES, CHUNK_BYTES));
        assertEquals(1, log.enforceRetention(LONG_AFTER), "two requests later it was read: segment 0 may go");

        // a target asking for a segment it had received (it lost its staging) finds it removed: the transfer ends
        MoveChunkHeader removed = target.header(target.chunk(1, first, 0, CHUNK_BYTES));
        assertEquals(Errors.OFFSET_OUT_OF_RANGE.code(), removed.errorCode, removed.toString());
        assertEquals(0, source.activeTransfers(), "the listing is out of date: the transfer ended");
        MoveSegmentList fresh = target.open(1, TOPIC, PARTITION, LEADER_EPOCH);
        assertEquals(Errors.NONE.code(), fresh.errorCode);
        assertEquals(second, fresh.segmentBaseOffsets[0], "a listing without the removed one");
    }

    @Test
    void shouldStopShippingOnceTheLogIsTruncatedBelowTheBoundary() throws Exception {
        PartitionLog log = source("source");
        MoveSource source = sourceOf((topic, partition) -> hosted(log), MoveFixtures.moveConfig());
        SourceCalls target = new SourceCalls(source);
        MoveSegmentList listing = target.open(1, TOPIC, PARTITION, LEADER_EPOCH);
        long first = listing.segmentBaseOffsets[0];
        int firstSize = listing.segmentSizes[0];
        assertEquals(Errors.NONE.code(), errorOf(target, target.chunk(1, first, 0, CHUNK_BYTES)));

        // an unclean election: this replica truncates into its first listed segment and follows another history,
        // whose first batch makes that segment larger than it was listed
        log.truncateTo(first + 1);
        log.assignLeaderEpoch(LEADER_EPOCH + 3);
        log.appendAsLeader(MoveFixtures.batch(Compression.NONE, START_MS, 10, firstSize), LEADER_EPOCH + 3, START_MS);
        while (log.segmentCount() < 3) {
            log.appendAsLeader(MoveFixtures.batch(Compression.NONE, START_MS, 4, 200), LEADER_EPOCH + 3, START_MS);
        }

        MoveChunkHeader header = target.header(target.chunk(1, first, 0, CHUNK_BYTES));
        assertEquals(
                Errors.NOT_LEADER_OR_FOLLOWER.code(),
                header.errorCode,
                "the listed segment now holds another history: " + header);
        assertEquals(0, source.activeTransfers());
        MoveSegmentList reopened = target.open(1, TOPIC, PARTITION, LEADER_EPOCH);
        assertEquals(Errors.NONE.code(), reopened.errorCode, "a fresh listing of the log as it is now");
    }

    @Test
    void shouldShipOnWhenTheLogIsTruncatedAtOrAboveTheBoundary() throws Exception {
        PartitionLog log = source("source");
        MoveSource source = sourceOf((topic, partition) -> hosted(log), MoveFixtures.moveConfig());
        SourceCalls target = new SourceCalls(source);
        MoveSegmentList listing = target.open(1, TOPIC, PARTITION, LEADER_EPOCH);

        log.truncateTo(listing.boundaryOffset); // a follower truncating to its high watermark

        for (long base : List.of(listing.segmentBaseOffsets[0], listing.segmentBaseOffsets[1])) {
            assertEquals(Errors.NONE.code(), errorOf(target, target.chunk(1, base, 0, CHUNK_BYTES)));
        }
        assertEquals(1, source.activeTransfers());
    }
}
