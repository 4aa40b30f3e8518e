package io.sluice.log.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.PartitionLog;
import io.sluice.log.segment.CleanFaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.RecordBatch;

/**
 * The cleaner against a reference model: random keyed writes (some compressed, some tombstones), clock advances and
 * cleans. After every clean the log holds, for every key, its latest record at its original offset (a tombstone may be
 * gone), every record read is one that was written, and nothing at or past the first uncleanable offset changed. After
 * a final drain (two cleans more than delete.retention.ms apart) no tombstone is left and every key appears once.
 */
class CleanerModelPropertyTest {
    private static final long RETENTION_MS = 1_000;

    sealed interface Op permits Write, Advance, Clean {}

    record Write(List<Integer> keys, List<Boolean> tombstones, int codec) implements Op {}

    record Advance(long ms) implements Op {}

    record Clean() implements Op {}

    @Provide
    Arbitrary<List<Op>> operations() {
        Arbitrary<Op> write = Combinators.combine(
                        Arbitraries.integers()
                                .between(0, 24)
                                .list()
                                .ofMinSize(1)
                                .ofMaxSize(6),
                        Arbitraries.of(false, false, false, true).list().ofSize(6),
                        Arbitraries.integers().between(0, 4))
                .as((keys, tombstones, codec) -> (Op) new Write(keys, tombstones, codec));
        Arbitrary<Op> advance = Arbitraries.longs().between(1, 2 * RETENTION_MS).map(Advance::new);
        Arbitrary<Op> clean = Arbitraries.just(new Clean());
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(8, write),
                        net.jqwik.api.Tuple.of(2, advance),
                        net.jqwik.api.Tuple.of(2, clean))
                .list()
                .ofMinSize(5)
                .ofMaxSize(80);
    }

    @Property(tries = 40)
    void cleaningKeepsTheLatestRecordOfEveryKey(@ForAll("operations") List<Op> ops, @ForAll boolean smallMap)
            throws Exception {
        Path dir = Files.createTempDirectory("cleaner-model");
        Path partition = dir.resolve("t-0");
        AtomicLong clock = new AtomicLong(1_000_000);
        PartitionLog log = CompactedLogs.open(
                partition,
                CompactedLogs.compacted(600).deleteRetentionMs(RETENTION_MS).build(),
                clock);
        LogCleaner cleaner = CompactedLogs.cleaner(log, dir, clock, smallMap ? 24 * 1024 : 1 << 20, CleanFaults.NONE);
        List<CompactedLogs.Stored> written = new ArrayList<>();
        try {
            for (Op op : ops) {
                if (op instanceof Write w) {
                    write(log, w, clock.get(), written);
                } else if (op instanceof Advance a) {
                    clock.addAndGet(a.ms());
                } else {
                    cleanAndCheck(log, cleaner, written);
                }
            }
            cleanAndCheck(log, cleaner, written);
            drain(log, cleaner, clock, written);
        } finally {
            log.deleteFiles();
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void write(PartitionLog log, Write w, long now, List<CompactedLogs.Stored> written)
            throws Exception {
        String[] keys = new String[w.keys().size()];
        String[] values = new String[keys.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = "k" + w.keys().get(i);
            values[i] = w.tombstones().get(i) ? null : "v" + written.size() + "-" + i;
        }
        Compression compression = switch (w.codec()) {
            case 1 -> Compression.gzip().build();
            case 2 -> Compression.snappy().build();
            case 3 -> Compression.lz4().build();
            case 4 -> Compression.zstd().build();
            default -> Compression.NONE;
        };
        var result = log.appendAsLeader(
                CompactedLogs.batch(
                        compression,
                        RecordBatch.NO_PRODUCER_ID,
                        RecordBatch.NO_PRODUCER_EPOCH,
                        RecordBatch.NO_SEQUENCE,
                        now,
                        keys,
                        values),
                0,
                now);
        for (int i = 0; i < keys.length; i++) {
            written.add(new CompactedLogs.Stored(result.firstOffset() + i, keys[i], values[i], now));
        }
    }

    private static void cleanAndCheck(PartitionLog log, LogCleaner cleaner, List<CompactedLogs.Stored> written) {
        long firstUncleanable = log.segmentChain()[log.segmentChain().length - 1].baseOffset();
        cleaner.cleanDirtiestNow();
        List<CompactedLogs.Stored> read = CompactedLogs.readAll(log);
        Map<Long, CompactedLogs.Stored> byOffset = new HashMap<>();
        for (CompactedLogs.Stored w : written) {
            byOffset.put(w.offset(), w);
        }
        long previous = -1;
        for (CompactedLogs.Stored r : read) {
            assertTrue(r.offset() > previous, "offsets increase: " + r.offset() + " after " + previous);
            previous = r.offset();
            CompactedLogs.Stored w = byOffset.get(r.offset());
            assertEquals(
                    new CompactedLogs.Stored(w.offset(), w.key(), w.value(), 0),
                    new CompactedLogs.Stored(r.offset(), r.key(), r.value(), 0),
                    "the record at offset " + r.offset() + " is the one written there");
            assertEquals(w.timestamp(), r.timestamp(), "timestamp at offset " + r.offset());
        }
        Set<Long> present = new HashSet<>();
        read.forEach(r -> present.add(r.offset()));
        for (CompactedLogs.Stored w : written) {
            if (w.offset() >= firstUncleanable) {
                assertTrue(
                        present.contains(w.offset()),
                        "offset " + w.offset() + " at or past the first uncleanable " + firstUncleanable
                                + " is untouched");
            }
        }
        for (CompactedLogs.Stored latest : latestByKey(written).values()) {
            if (latest.value() != null) {
                assertTrue(present.contains(latest.offset()), "latest of " + latest.key() + " at " + latest.offset());
            }
        }
    }

    private static Map<String, CompactedLogs.Stored> latestByKey(List<CompactedLogs.Stored> written) {
        Map<String, CompactedLogs.Stored> latest = new HashMap<>();
        for (CompactedLogs.Stored w : written) {
            latest.put(w.key(), w);
        }
        return latest;
    }

    /** Rolls past every written record, cleans, waits out delete.retention.ms, rolls and cleans again. */
    private static void drain(
            PartitionLog log, LogCleaner cleaner, AtomicLong clock, List<CompactedLogs.Stored> written)
            throws Exception {
        int originalCount = written.size();
        for (int round = 0; round < 2; round++) {
            clock.addAndGet(RETENTION_MS + 1);
            int segments = log.segmentCount();
            long activeBase = log.segmentChain()[segments - 1].baseOffset();
            int filler = 0;
            while (log.segmentChain()[log.segmentCount() - 1].baseOffset() == activeBase) {
                write(log, new Write(List.of(1000 + round * 1000 + filler++), List.of(false), 0), clock.get(), written);
            }
            for (int i = 0; i < 3 && cleaner.cleanDirtiestNow(); i++) {
                // a small map needs several cleans to cover the dirty section
            }
        }
        List<CompactedLogs.Stored> read = CompactedLogs.readAll(log);
        Map<String, CompactedLogs.Stored> latest = latestByKey(written.subList(0, originalCount));
        Map<String, Integer> seen = new HashMap<>();
        for (CompactedLogs.Stored r : read) {
            if (latest.containsKey(r.key())) {
                assertTrue(r.value() != null, "expired tombstone of " + r.key() + " at " + r.offset() + " is gone");
                assertEquals(latest.get(r.key()).offset(), r.offset(), "only the latest of " + r.key() + " is left");
                seen.merge(r.key(), 1, Integer::sum);
            }
        }
        for (CompactedLogs.Stored l : latest.values()) {
            assertEquals(l.value() == null ? null : 1, seen.get(l.key()), "key " + l.key());
        }
    }
}
