package io.sluice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChildProcessRunnerTest {

    @Test
    void shouldFeedStdinAndCaptureBothStreams() throws Exception {
        ProcessResult result = ChildProcessRunner.run(
                List.of("sh", "-c", "cat; echo oops >&2; exit 4"),
                "a:1\nb:2\n".getBytes(StandardCharsets.UTF_8),
                Duration.ofSeconds(30));
        assertEquals(4, result.exitCode());
        assertFalse(result.timedOut());
        assertEquals(List.of("a:1", "b:2"), result.stdoutLines());
        assertEquals("oops\n", result.stderr());
        assertFalse(result.succeeded());
    }

    @Test
    void shouldKillAChildThatOutlivesItsTimeout() throws Exception {
        ProcessResult result = ChildProcessRunner.run(List.of("sleep", "600"), new byte[0], Duration.ofMillis(300));
        assertTrue(result.timedOut());
        assertEquals(-1, result.exitCode());
        assertTrue(result.describe().contains("TIMED OUT"));
    }

    @Test
    void shouldNotDeadlockOnOutputLargerThanAPipe() throws Exception {
        ProcessResult result = ChildProcessRunner.run(
                List.of("sh", "-c", "head -c 5000000 /dev/zero"), new byte[0], Duration.ofSeconds(30));
        assertTrue(result.succeeded(), result.describe());
        assertEquals(5_000_000, result.stdout().length);
    }
}
