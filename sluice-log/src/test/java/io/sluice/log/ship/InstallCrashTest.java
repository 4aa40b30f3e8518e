package io.sluice.log.ship;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.log.LogConfig;
import io.sluice.log.PartitionLog;
import io.sluice.log.RecoveryReport;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An install of staged files into an empty log that a crash stops between two renames (a fault hook throws where the
 * process would die; nothing is closed): the next open of the directory finds the log empty and every staged file back
 * in staging, from where the install succeeds again.
 */
class InstallCrashTest {
    private static final long NOW = 1_700_000_000_000L;
    /** Files each staged segment renames in: its offset index, its time index, its {@code .log}. */
    private static final int RENAMES_PER_SEGMENT = 3;

    @TempDir
    Path root;

    /** Thrown by the fault hook to stop the install as a crash would: no cleanup runs for an Error. */
    private static final class SimulatedCrash extends Error {
        private static final long serialVersionUID = 1L;

        SimulatedCrash() {
            super("simulated crash during the install");
        }
    }

    private static LogConfig config() {
        return LogConfig.builder()
                .segmentBytes(1024)
                .indexIntervalBytes(100)
                .fileDeleteDelayMs(0)
                .build();
    }

    private PartitionLog log(String name) throws IOException {
        return PartitionLog.open(root.resolve(name), config(), new RecoveryReport(), 0, 0, () -> NOW);
    }

    private PartitionLog source() throws Exception {
        PartitionLog log = log("source");
        for (int i = 0; i < 40; i++) {
            ByteBuffer batch = MemoryRecords.withRecords(
                            Compression.NONE,
                            new SimpleRecord(
                                    NOW, ("value-" + i + "-" + "x".repeat(200)).getBytes(StandardCharsets.UTF_8)))
                    .buffer();
            log.appendAsLeader(batch, i < 20 ? 0 : 1, NOW);
        }
        return log;
    }

    /** Copies the closed segments of {@code view} into {@code staging}, to be indexed by the install. */
    private static StagedLog stage(PartitionLog source, ShippableLog view, Path staging) throws IOException {
        Files.createDirectories(staging);
        long[] bases = new long[view.segments().size()];
        long[] lasts = new long[bases.length];
        for (int i = 0; i < bases.length; i++) {
            bases[i] = view.segments().get(i).baseOffset();
            lasts[i] = view.segments().get(i).lastOffset();
            String name = String.format(Locale.ROOT, "%020d.log", bases[i]);
            Files.copy(source.dir().resolve(name), staging.resolve(name));
        }
        return new StagedLog(
                staging, bases, lasts, view.logStartOffset(), view.boundaryOffset(), view.epochs(), -1, false, true);
    }

    private static TreeMap<String, byte[]> segmentFiles(Path dir) throws IOException {
        TreeMap<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(dir)) {
            for (Path file : list.filter(f -> f.toString().endsWith(".log")).toList()) {
                files.put(file.getFileName().toString(), Files.readAllBytes(file));
            }
        }
        return files;
    }

    private static Set<String> names(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(f -> f.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /**
     * @param crashAfter the rename after which the process dies: 1 the first index file, 3 the first {@code .log}, 4
     *                   the second segment's first file, 0 the last rename of all
     */
    @ParameterizedTest(name = "crash after rename {0}")
    @ValueSource(ints = {1, 3, 4, 0})
    void shouldOpenEmptyWithEveryStagedFileBackInStagingAndInstallAgain(int crashAfter) throws Exception {
        try (PartitionLog source = source();
                ShippableLog view = source.pinForShipping(Long.MAX_VALUE)) {
            Path targetDir = root.resolve("target");
            Path staging = targetDir.resolve("staging");
            PartitionLog crashed = log("target");
            StagedLog staged = stage(source, view, staging);
            TreeMap<String, byte[]> stagedBefore = segmentFiles(staging);
            assertTrue(stagedBefore.size() >= 3, "the fill makes several segments");
            int crashAt = crashAfter > 0 ? crashAfter : RENAMES_PER_SEGMENT * stagedBefore.size();
            AtomicInteger renamed = new AtomicInteger();

            assertThrows(
                    SimulatedCrash.class,
                    () -> crashed.installStaged(staged, file -> {
                        if (renamed.incrementAndGet() == crashAt) {
                            throw new SimulatedCrash();
                        }
                    }));
            // the process dies here: the crashed log is never closed

            RecoveryReport report = new RecoveryReport();
            try (PartitionLog reopened = PartitionLog.open(targetDir, config(), report, 0, 0, () -> NOW)) {
                assertEquals(0, reopened.logEndOffset(), "report: " + report);
                assertEquals(1, reopened.segmentCount());
                assertEquals(List.of(), reopened.leaderEpochs(), "no epoch of a log not installed");
                assertTrue(report.toString().contains("rolled back"), report.toString());
                TreeMap<String, byte[]> stagedAfter = segmentFiles(staging);
                assertEquals(stagedBefore.keySet(), stagedAfter.keySet(), "every staged segment is back in staging");
                for (String name : stagedBefore.keySet()) {
                    assertArrayEquals(stagedBefore.get(name), stagedAfter.get(name), name);
                }
                try (PartitionLog fresh = log("fresh")) {
                    Set<String> expected = new TreeSet<>(names(fresh.dir()));
                    expected.add(staging.getFileName().toString());
                    assertEquals(expected, names(targetDir), "nothing of the install is left beside the empty log");
                }

                reopened.installStaged(staged);

                assertEquals(view.boundaryOffset(), reopened.logEndOffset());
                assertEquals(view.epochs(), reopened.leaderEpochs());
                for (String name : stagedBefore.keySet()) {
                    assertArrayEquals(stagedBefore.get(name), Files.readAllBytes(targetDir.resolve(name)), name);
                }
            }
        }
    }

    /** A marker the open cannot read (or naming no staging directory) rolls back by deleting what was renamed in. */
    @Test
    void shouldOpenEmptyWhenTheMarkerNamesNoStagingDirectory() throws Exception {
        try (PartitionLog source = source();
                ShippableLog view = source.pinForShipping(Long.MAX_VALUE)) {
            Path targetDir = root.resolve("target");
            PartitionLog crashed = log("target");
            StagedLog staged = stage(source, view, targetDir.resolve("staging"));
            AtomicInteger renamed = new AtomicInteger();
            assertThrows(
                    SimulatedCrash.class,
                    () -> crashed.installStaged(staged, file -> {
                        if (renamed.incrementAndGet() == 2 * RENAMES_PER_SEGMENT) {
                            throw new SimulatedCrash();
                        }
                    }));
            Path marker;
            try (Stream<Path> list = Files.list(targetDir)) {
                marker = list.filter(f -> f.getFileName().toString().contains("install"))
                        .findFirst()
                        .orElseThrow();
            }
            Files.write(marker, new byte[] {(byte) 0xC3, 0x28, '/', '.', '.'});

            RecoveryReport report = new RecoveryReport();
            try (PartitionLog reopened = PartitionLog.open(targetDir, config(), report, 0, 0, () -> NOW)) {
                assertEquals(0, reopened.logEndOffset(), "report: " + report);
                assertEquals(1, reopened.segmentCount());
                assertTrue(report.toString().contains("rolled back"), report.toString());
                reopened.appendAsLeader(
                        MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(NOW, new byte[10]))
                                .buffer(),
                        0,
                        NOW);
                assertEquals(1, reopened.logEndOffset());
            }
        }
    }
}
