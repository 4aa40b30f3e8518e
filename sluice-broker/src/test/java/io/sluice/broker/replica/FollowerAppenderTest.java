package io.sluice.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.cluster.state.PartitionState;
import io.sluice.log.LogConfig;
import io.sluice.log.LogReadResult;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A follower applying fetch answers to a real log: append as received, CRC refusal, trimming, divergence. */
class FollowerAppenderTest {
    private static final int SELF = 2;
    private static final int LEADER = 1;

    @TempDir
    Path dir;

    private PartitionLog log;
    private Partition partition;
    private final FollowerAppender appender = new FollowerAppender();

    @BeforeEach
    void follow() throws Exception {
        log = PartitionLog.open(dir.resolve("t-0"), LogConfig.builder().build(), new RecoveryReport());
        TopicInfo topic = new TopicInfo("t", Uuid.randomUuid(), 1, Map.of());
        partition = new Partition(
                topic,
                0,
                log,
                TopicConfigs.resolve(BrokerConfig.fromMap(Map.of()), Map.of()),
                new PartitionState(new int[] {1, 2}, LEADER, 3, new int[] {1, 2}),
                SELF,
                0);
        partition.assign(new PartitionState(new int[] {1, 2}, LEADER, 3, new int[] {1, 2}), 0);
    }

    @AfterEach
    void close() throws Exception {
        log.close();
    }

    private static ByteBuffer batch(long baseOffset, int epoch, String... values) {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(values[i].getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return MemoryRecords.withRecords(baseOffset, Compression.NONE, epoch, records)
                .buffer();
    }

    private static ByteBuffer concat(ByteBuffer... parts) {
        int size = 0;
        for (ByteBuffer p : parts) {
            size += p.remaining();
        }
        ByteBuffer all = ByteBuffer.allocate(size);
        for (ByteBuffer p : parts) {
            all.put(p.duplicate());
        }
        return all.flip();
    }

    private static FetchResponseData.PartitionData answer(ByteBuffer records, long highWatermark) {
        return new FetchResponseData.PartitionData()
                .setErrorCode(Errors.NONE.code())
                .setHighWatermark(highWatermark)
                .setLogStartOffset(0)
                .setRecords(MemoryRecords.readableRecords(records.duplicate()));
    }

    private byte[] stored() {
        LogReadResult read = log.read(0, Integer.MAX_VALUE, Long.MAX_VALUE);
        ByteBuffer bytes = ByteBuffer.allocate(read.sizeInBytes());
        try {
            read.channel().read(bytes, read.position());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bytes.array();
    }

    @Test
    void shouldAppendTheBatchesAsReceivedAndFollowTheLeadersHighWatermark() {
        ByteBuffer batches = concat(batch(0, 3, "a", "b"), batch(2, 3, "c"));

        assertTrue(appender.apply(partition, 3, answer(batches, 2)));

        assertEquals(3, log.logEndOffset());
        assertEquals(2, partition.highWatermark());
        assertEquals(batches, ByteBuffer.wrap(stored()), "stored bytes are the fetched bytes");
        assertTrue(appender.apply(partition, 3, answer(ByteBuffer.allocate(0), 99)));
        assertEquals(3, partition.highWatermark(), "capped at the local log end");
    }

    @Test
    void shouldRefuseABatchWhoseCrcFailsAndAppendNothing() {
        ByteBuffer good = batch(0, 3, "a");
        ByteBuffer bad = batch(1, 3, "b");
        bad.put(bad.limit() - 1, (byte) (bad.get(bad.limit() - 1) ^ 0x40));

        assertFalse(appender.apply(partition, 3, answer(concat(good, bad), 2)));

        assertEquals(0, log.logEndOffset());
    }

    @Test
    void shouldKeepOnlyWholeBatchesOfATruncatedAnswer() {
        ByteBuffer whole = batch(0, 3, "a");
        ByteBuffer cut = batch(1, 3, "bbbbbbbbbb");
        cut.limit(cut.limit() - 5);

        assertTrue(appender.apply(partition, 3, answer(concat(whole, cut), 1)));

        assertEquals(1, log.logEndOffset());
    }

    @Test
    void shouldTruncateWhereTheLeaderSaysTheLogsDiverge() throws Exception {
        log.appendAsFollower(concat(batch(0, 1, "a", "b"), batch(2, 2, "c", "d"), batch(4, 2, "e")));
        FetchResponseData.PartitionData diverging = answer(ByteBuffer.allocate(0), 2);
        diverging.divergingEpoch().setEpoch(2).setEndOffset(4);

        assertTrue(appender.apply(partition, 3, diverging));

        assertEquals(4, log.logEndOffset(), "the earlier of the leader's and this log's end of epoch 2");
        assertEquals(2, log.latestEpoch());
    }

    @Test
    void shouldStartOverAtTheLeadersLogStartWhenFarBehindIt() throws Exception {
        log.appendAsFollower(batch(0, 1, "a"));
        FetchResponseData.PartitionData outOfRange = new FetchResponseData.PartitionData()
                .setErrorCode(Errors.OFFSET_OUT_OF_RANGE.code())
                .setHighWatermark(50)
                .setLogStartOffset(40);

        assertTrue(appender.apply(partition, 3, outOfRange));

        assertEquals(40, log.logStartOffset());
        assertEquals(40, log.logEndOffset());
    }

    @Test
    void shouldStartAtTheBaseOfABatchStraddlingTheLeadersLogStartThenFollowTheStart() throws Exception {
        // DeleteRecords put the leader's log start at 41, inside the batch 40..42; this follower started over at 41.
        log.truncateFullyAndStartAt(41);
        FetchResponseData.PartitionData straddling =
                answer(batch(40, 3, "a", "b", "c"), 43).setLogStartOffset(41);

        assertTrue(appender.apply(partition, 3, straddling));

        assertEquals(43, log.logEndOffset(), "the whole batch appended");
        assertEquals(41, log.logStartOffset(), "the leader's log start applied after the append");
    }

    @Test
    void shouldAdvanceTheLogStartWithTheLeaders() throws Exception {
        log.appendAsFollower(concat(batch(0, 3, "a", "b"), batch(2, 3, "c")));
        FetchResponseData.PartitionData moved =
                answer(ByteBuffer.allocate(0), 3).setLogStartOffset(2);

        assertTrue(appender.apply(partition, 3, moved));
        assertEquals(2, log.logStartOffset());
        assertTrue(
                appender.apply(partition, 3, answer(ByteBuffer.allocate(0), 3).setLogStartOffset(9)));
        assertEquals(2, log.logStartOffset(), "a leader start beyond this log's end waits for the records");
    }

    @Test
    void shouldIgnoreAnswersFromAnEarlierLeaderEpoch() {
        assertTrue(appender.apply(partition, 2, answer(batch(0, 2, "stale"), 1)));

        assertEquals(0, log.logEndOffset());
    }

    @Test
    void shouldBackOffOnAFencedAnswer() {
        FetchResponseData.PartitionData fenced =
                new FetchResponseData.PartitionData().setErrorCode(Errors.FENCED_LEADER_EPOCH.code());

        assertFalse(appender.apply(partition, 3, fenced));
    }
}
