package io.sluice.testkit;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What a finished (or timed-out and killed) child process printed and returned.
 *
 * <p>Immutable; thread-safe.
 *
 * @param command  the command line that ran
 * @param exitCode the exit code, or -1 if the process was killed after {@code timedOut}
 * @param timedOut true if the process outlived its timeout and was killed
 * @param stdout   everything it wrote to stdout
 * @param stderr   everything it wrote to stderr, decoded as UTF-8
 */
public record ProcessResult(List<String> command, int exitCode, boolean timedOut, byte[] stdout, String stderr) {

    public String stdoutText() {
        return new String(stdout, StandardCharsets.UTF_8);
    }

    /** Lines of stdout without their terminators; an empty output has no lines. */
    public List<String> stdoutLines() {
        return stdoutText().lines().toList();
    }

    public boolean succeeded() {
        return !timedOut && exitCode == 0;
    }

    /** A one-paragraph description for assertion messages: command, exit, stderr and the start of stdout. */
    public String describe() {
        String out = stdoutText();
        int shown = Math.min(out.length(), 2_000);
        return "command " + String.join(" ", command) + " -> exit " + exitCode
                + (timedOut ? " (TIMED OUT, killed)" : "")
                + "\nstderr:\n" + stderr + "\nstdout (" + out.length() + " chars, first " + shown + "):\n"
                + out.substring(0, shown);
    }
}
