package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterTry;
import net.jqwik.api.lifecycle.BeforeTry;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;

/**
 * Random sequences of appends, reads, truncations, DeleteRecords, retention and restarts against a list of
 * batches in memory: the log must always return exactly what the model holds.
 */
class PartitionLogModelPropertyTest {
    private static final LogConfig CONFIG = LogConfig.builder()
            .segmentBytes(600)
            .indexIntervalBytes(64)
            .fileDeleteDelayMs(0)
            .build();

    /** A batch in the model: its base offset and record values. */
    private record ModelBatch(long baseOffset, List<String> values) {
        long lastOffset() {
            return baseOffset + values.size() - 1;
        }
    }

    private Path dir;

    @BeforeTry
    void createDir() throws IOException {
        dir = Files.createTempDirectory("sluice-model").resolve("model-0");
    }

    @AfterTry
    void deleteDir() throws IOException {
        try (Stream<Path> walk = Files.walk(dir.getParent())) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Property(tries = 30)
    void shouldAlwaysAgreeWithTheInMemoryModel(@ForAll long seed, @ForAll @IntRange(min = 1, max = 80) int steps)
            throws Exception {
        Random random = new Random(seed);
        List<ModelBatch> model = new ArrayList<>();
        long[] start = {0};
        long nextOffset = 0;
        PartitionLog log = PartitionLog.open(dir, CONFIG, new RecoveryReport());
        try {
            for (int step = 0; step < steps; step++) {
                int action = random.nextInt(100);
                if (action < 55) {
                    int batches = 1 + random.nextInt(3);
                    ByteBuffer[] parts = new ByteBuffer[batches];
                    long base = nextOffset;
                    for (int b = 0; b < batches; b++) {
                        int records = 1 + random.nextInt(4);
                        List<String> values = new ArrayList<>();
                        for (int r = 0; r < records; r++) {
                            values.add("s" + step + "b" + b + "r" + r + "-" + "x".repeat(random.nextInt(40)));
                        }
                        parts[b] = TestBatches.batch(1_000 + step, values.toArray(new String[0]));
                        model.add(new ModelBatch(base, values));
                        base += records;
                    }
                    AppendResult result = log.appendAsLeader(TestBatches.concat(parts), 0, 5_000);
                    assertEquals(nextOffset, result.firstOffset());
                    assertEquals(base - 1, result.lastOffset());
                    nextOffset = base;
                } else if (action < 75) {
                    checkRead(log, model, start[0], nextOffset, random);
                } else if (action < 83 && nextOffset > start[0]) {
                    long target = start[0] + (long) (random.nextDouble() * (nextOffset - start[0]));
                    log.truncateTo(target);
                    model.removeIf(b -> b.lastOffset() >= target);
                    nextOffset = model.isEmpty()
                            ? log.logEndOffset()
                            : model.get(model.size() - 1).lastOffset() + 1;
                    if (nextOffset < start[0]) {
                        model.clear();
                        nextOffset = start[0];
                    }
                } else if (action < 88 && nextOffset > start[0]) {
                    long target = start[0] + (long) (random.nextDouble() * (nextOffset - start[0] + 1));
                    log.deleteRecordsBefore(target);
                    start[0] = Math.max(start[0], target);
                } else if (action < 92) {
                    log.enforceRetention(5_000);
                    start[0] = log.logStartOffset();
                } else {
                    log.close();
                    log = PartitionLog.open(dir, CONFIG, new RecoveryReport());
                }
                assertEquals(nextOffset, log.logEndOffset(), "log end after step " + step);
                assertEquals(start[0], log.logStartOffset(), "log start after step " + step);
            }
            List<String> expected = new ArrayList<>();
            for (ModelBatch batch : model) {
                for (int i = 0; i < batch.values().size(); i++) {
                    if (batch.baseOffset() + i >= start[0]) {
                        expected.add(batch.values().get(i));
                    }
                }
            }
            assertEquals(
                    expected,
                    TestBatches.readAll(log).stream()
                            .map(TestBatches.Stored::value)
                            .toList());
        } finally {
            log.close();
        }
    }

    private static void checkRead(PartitionLog log, List<ModelBatch> model, long start, long end, Random random) {
        long offset = start + (long) (random.nextDouble() * (end - start + 1));
        int maxBytes = 1 + random.nextInt(700);
        long highWatermark =
                random.nextBoolean() ? Long.MAX_VALUE : offset + 1 + (long) (random.nextDouble() * (end - offset));
        LogReadResult result = log.read(offset, maxBytes, highWatermark);
        if (offset == end) {
            assertTrue(result.isEmpty());
            return;
        }
        List<MutableRecordBatch> batches = TestBatches.batchesOf(result);
        assertFalse(batches.isEmpty(), "a read below the log end returns at least one batch (KIP-74)");
        assertTrue(batches.size() == 1 || result.sizeInBytes() <= maxBytes, "maxBytes " + maxBytes);
        int index = 0;
        while (model.get(index).lastOffset() < offset) {
            index++;
        }
        for (MutableRecordBatch batch : batches) {
            assertTrue(
                    batch.baseOffset() < highWatermark,
                    "batch at " + batch.baseOffset() + " is beyond " + highWatermark);
            ModelBatch expected = model.get(index++);
            assertEquals(expected.baseOffset(), batch.baseOffset());
            List<String> values = new ArrayList<>();
            for (Record record : batch) {
                byte[] bytes = new byte[record.valueSize()];
                record.value().get(bytes);
                values.add(new String(bytes, StandardCharsets.UTF_8));
            }
            assertEquals(expected.values(), values);
        }
    }
}
