package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.CompressionType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** ListOffsets answers at record granularity, whatever the batch's codec, as Kafka does. */
class TimestampSearchTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void shouldFindTheExactRecordByTimestampInsideABatch(CompressionType type) throws Exception {
        try (PartitionLog log = PartitionLog.open(tmp.resolve("ts-0"), LogConfig.defaults(), new RecoveryReport())) {
            log.appendAsLeader(TestBatches.withTimestamps(Compression.of(type).build(), 100, 300, 200, 500, 400), 9, 1);
            log.appendAsLeader(TestBatches.withTimestamps(Compression.of(type).build(), 600, 800, 700), 10, 1);

            assertEquals(new OffsetAndTimestamp(0, 100, 9), log.offsetForTimestamp(50));
            assertEquals(new OffsetAndTimestamp(1, 300, 9), log.offsetForTimestamp(250));
            assertEquals(new OffsetAndTimestamp(3, 500, 9), log.offsetForTimestamp(450));
            assertEquals(new OffsetAndTimestamp(5, 600, 10), log.offsetForTimestamp(501));
            assertEquals(new OffsetAndTimestamp(6, 800, 10), log.offsetForTimestamp(750));
            assertNull(log.offsetForTimestamp(801));
            assertEquals(new OffsetAndTimestamp(6, 800, 10), log.offsetOfMaxTimestamp());
        }
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void shouldSkipRecordsBelowTheLogStartOffset(CompressionType type) throws Exception {
        try (PartitionLog log = PartitionLog.open(tmp.resolve("ts-1"), LogConfig.defaults(), new RecoveryReport())) {
            log.appendAsLeader(TestBatches.withTimestamps(Compression.of(type).build(), 100, 900, 200, 300), 0, 1);
            log.deleteRecordsBefore(2);
            assertEquals(new OffsetAndTimestamp(2, 200, 0), log.offsetForTimestamp(150));
            assertNull(log.offsetForTimestamp(400), "the record at 900 is below the log start");
        }
    }
}
