package io.sluice.cli.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.cli.SluiceCli;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice partition moves} without {@code --watch} on a terminal (a pseudo-terminal of {@code script}, 20
 * columns wide) against a broker in this JVM: its one reading is printed whole. It was cut to the terminal's width
 * (and would have been cut to its height) as if it were to be redrawn.
 */
class PartitionMovesTerminalTest {
    /** A guard against a hung child, not a timing assertion. */
    private static final long GUARD_SECONDS = 120;

    @TempDir
    Path dir;

    @Test
    void shouldPrintOneReadingWholeOnANarrowTerminal() throws Exception {
        try (SluiceBroker broker = SluiceBroker.start(BrokerConfig.fromMap(
                Map.of("log.dirs", dir.resolve("data").toString(), "listeners", "PLAINTEXT://127.0.0.1:0")))) {
            String java =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Path classPath = dir.resolve("classpath");
            Files.writeString(classPath, System.getProperty("java.class.path"));
            String sluice = "stty cols 20 rows 10; exec '" + java + "' -Xmx256m -cp \"$(cat '" + classPath + "')\" "
                    + SluiceCli.class.getName() + " partition moves -b 127.0.0.1:"
                    + broker.boundAddress().getPort();
            Path output = dir.resolve("output");
            Process script = new ProcessBuilder(List.of("script", "-qec", sluice, "/dev/null"))
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            assertTrue(script.waitFor(GUARD_SECONDS, TimeUnit.SECONDS), "sluice partition moves did not end");
            String text = Files.readString(output, StandardCharsets.UTF_8);
            assertEquals(0, script.exitValue(), text);
            assertTrue(text.contains("No partition moves in progress."), text);
        }
    }
}
