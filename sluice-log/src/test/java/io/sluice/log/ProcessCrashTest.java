package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kill -9 of a JVM in the middle of appending: after recovery every acknowledged record is there, in order, and
 * the log takes new writes. (Process crash only: the page cache survives, so this holds for every flush policy;
 * power loss is what the flush policy is about.)
 */
class ProcessCrashTest {
    private static final int ACKS_BEFORE_KILL = 300;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(longs = {1, Long.MAX_VALUE})
    void shouldKeepEveryAcknowledgedRecordAfterSigkill(long flushIntervalMessages) throws Exception {
        Path dir = tmp.resolve("crash-0");
        Process writer = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        CrashingWriter.class.getName(),
                        dir.toString(),
                        Long.toString(flushIntervalMessages))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        long lastAcked = -1;
        try (BufferedReader acks =
                new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
            int seen = 0;
            String line;
            while (seen < ACKS_BEFORE_KILL && (line = acks.readLine()) != null) {
                if (line.startsWith("ACK ")) {
                    lastAcked = Long.parseLong(line.substring(4));
                    seen++;
                }
            }
            writer.destroyForcibly();
            assertTrue(writer.waitFor(30, TimeUnit.SECONDS));
        } finally {
            writer.destroyForcibly();
        }
        assertEquals(137, writer.exitValue(), "killed by SIGKILL");
        assertEquals(2L * ACKS_BEFORE_KILL - 1, lastAcked, "the writer acknowledged " + ACKS_BEFORE_KILL + " appends");

        try (PartitionLog log =
                PartitionLog.open(dir, LogConfig.builder().segmentBytes(8192).build(), new RecoveryReport())) {
            assertTrue(
                    log.logEndOffset() > lastAcked,
                    "log end " + log.logEndOffset() + ", last acknowledged " + lastAcked);
            List<TestBatches.Stored> records = TestBatches.readAll(log);
            assertEquals(log.logEndOffset(), records.size());
            for (int i = 0; i < records.size(); i++) {
                assertEquals(i, records.get(i).offset());
                assertEquals("v" + i, records.get(i).value());
            }
            long end = log.logEndOffset();
            assertEquals(
                    end, log.appendAsLeader(TestBatches.batch(1, "after"), 0, 1).firstOffset());
        }
    }
}
