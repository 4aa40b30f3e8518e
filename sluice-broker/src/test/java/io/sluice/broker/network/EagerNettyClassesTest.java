package io.sluice.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link EagerNettyClasses#initialize()} runs the static initializers of the Netty classes it lists, observed in a
 * fresh JVM (in this one other tests may have initialized them already): none has run before, every one has after.
 */
class EagerNettyClassesTest {
    private static final long PROBE_TIMEOUT_SECONDS = 60;

    @Test
    void shouldInitializeEveryListedClassThatWasNotInitializedBefore() throws Exception {
        List<String> expected = new ArrayList<>();
        for (Class<?> type : EagerNettyClasses.CLASSES) {
            expected.add("before " + type.getName() + " false");
        }
        for (Class<?> type : EagerNettyClasses.CLASSES) {
            expected.add("after " + type.getName() + " true");
        }

        assertEquals(expected, runProbe());
    }

    private static List<String> runProbe() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process probe = new ProcessBuilder(
                        java, "-cp", System.getProperty("java.class.path"), EagerNettyClassesProbe.class.getName())
                .redirectErrorStream(true)
                .start();
        try {
            String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!probe.waitFor(PROBE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("the probe JVM did not exit within " + PROBE_TIMEOUT_SECONDS + " s");
            }
            assertEquals(0, probe.exitValue(), "the probe JVM's exit code; its output:\n" + output);
            return output.lines()
                    .filter(line -> line.startsWith("before ") || line.startsWith("after "))
                    .toList();
        } finally {
            probe.destroyForcibly();
        }
    }
}
