package io.sluice.it.move;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 13's large variant behind the slow profile ({@code mvn -B -Pslow verify}): one partition of 10 GB (1 KB
 * records, zstd) moved between two brokers by Apache Kafka 3.9.1 and by Sluice's file path, with
 * {@code sluice-bench/peer/run-move-comparison.sh}, which also runs the floor and writes the report under
 * {@code sluice-bench/peer/target/}. Skipped when the disk lacks room (the script needs 3 x 10 GB + 2 GB free). It
 * checks that both moves ran to the end and that Sluice's new replica holds the whole partition; the speeds and CPU
 * are the report's, read by people (docs/benchmarks.md section 10), never asserted.
 *
 * <p>Not thread-safe; a test.
 */
@Tag("slow")
class TenGigabyteMoveComparisonTest {
    private static final long SIZE_MB = 10_240;
    private static final long FREE_BYTES_NEEDED = (3 * SIZE_MB + 2_048) * 1_048_576;

    @Test
    void shouldMoveTenGigabytesWithKafkaAndWithSluicesFilePath() throws Exception {
        Path root = Path.of("").toAbsolutePath().getParent(); // the module's directory is where surefire runs
        Path script = root.resolve("sluice-bench/peer/run-move-comparison.sh");
        assertTrue(Files.isRegularFile(script), script + " is missing");
        long free = Files.getFileStore(root).getUsableSpace();
        assumeTrue(
                free >= FREE_BYTES_NEEDED,
                "the 10 GB move needs " + FREE_BYTES_NEEDED + " bytes free, " + free + " are");

        Path log = Path.of("target", "move-10g.log").toAbsolutePath(); // kept: the run's own account
        Files.createDirectories(log.getParent());
        ProcessBuilder run = new ProcessBuilder("bash", script.toString(), "--only", "kafka,sluice-file")
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = run.environment();
        env.putAll(Map.of(
                "SIZE_MB", Long.toString(SIZE_MB),
                "RECORD_SIZES", "1000",
                "ROUNDS", "1",
                "WARM_MOVES", "0",
                "MOVE_TIMEOUT", "3600",
                "FILL_TIMEOUT", "3600",
                "SLUICE_FILE_PATH_OVERRIDES", "sluice.move.file.transfer.enable=true"));
        Process process = run.start();
        if (!process.waitFor(3, TimeUnit.HOURS)) {
            process.destroy(); // the script stops its brokers and deletes their data on TERM
            process.waitFor(2, TimeUnit.MINUTES);
        }
        assertEquals(0, process.exitValue(), "the comparison failed; its output: " + log);

        Map<String, String> sluice = results(root, "sluice-file");
        Map<String, String> kafka = results(root, "kafka");
        assertTrue(kafka.containsKey("move_s") && sluice.containsKey("move_s"), "both moves ran: " + kafka + sluice);
        assertEquals(sluice.get("partition_mb"), sluice.get("target_partition_mb"), "the new replica is whole");
        assertTrue(Double.parseDouble(sluice.get("partition_mb")) >= SIZE_MB * 0.99, "a 10 GB partition: " + sluice);
        assertFalse(
                Files.readString(root.resolve("sluice-bench/peer/target/move-latest.csv"))
                        .contains(",error_"),
                "no step of the run failed");
    }

    /** The per-round values the report's CSV holds for {@code system} (system,record size,round,metric,value). */
    private static Map<String, String> results(Path root, String system) throws IOException {
        List<String> lines = Files.readAllLines(root.resolve("sluice-bench/peer/target/move-latest.csv"));
        Map<String, String> values = new HashMap<>();
        for (String line : lines) {
            String[] fields = line.split(",");
            if (fields.length == 5 && fields[0].equals(system)) {
                values.put(fields[3], fields[4]);
            }
        }
        return values;
    }
}
