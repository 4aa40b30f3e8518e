package io.sluice.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs Debian's {@code chromium} headless against a page served on this machine: the DOM after the page's scripts
 * ran ({@code --dump-dom}), or a screenshot. Flags keep it off the network (no background requests, updates or sync,
 * which this machine's closed network refuses) and give each run a fresh profile; {@code --virtual-time-budget} lets
 * the page's fetches and timers finish before the dump.
 *
 * <p>Immutable; thread-safe.
 */
public final class HeadlessChromium {
    /** What a test says when the browser is missing. */
    public static final String NOT_INSTALLED =
            "chromium is not installed (no /usr/bin/chromium); install it with: apt-get install -y chromium (.ci/run does)";

    static final Path EXECUTABLE = Path.of("/usr/bin/chromium");
    /** Deadline for one browser run; a run that needs longer is a hang. */
    static final Duration RUN_TIMEOUT = Duration.ofSeconds(90);
    /** Virtual time the page gets to load its data before the dump or screenshot. */
    static final Duration PAGE_TIME = Duration.ofSeconds(10);

    private final Path profileRoot;

    /** @param profileRoot where each run's fresh profile directory is made */
    public HeadlessChromium(Path profileRoot) {
        this.profileRoot = profileRoot;
    }

    public static boolean isInstalled() {
        return Files.isExecutable(EXECUTABLE);
    }

    /** The page's DOM once its scripts ran, as HTML. */
    public String dumpDom(String url) throws IOException {
        ProcessResult result = run(List.of("--dump-dom", url));
        if (!result.succeeded()) {
            throw new IOException("chromium --dump-dom " + url + " failed: " + result.describe());
        }
        return result.stdoutText();
    }

    /** Writes a PNG screenshot of the page, {@code width} x {@code height} pixels, to {@code png}. */
    public void screenshot(String url, Path png, int width, int height) throws IOException {
        Files.createDirectories(png.toAbsolutePath().getParent());
        ProcessResult result = run(List.of(
                "--screenshot=" + png.toAbsolutePath(),
                "--window-size=" + width + "," + height,
                "--hide-scrollbars",
                url));
        if (!result.succeeded() || !Files.isRegularFile(png)) {
            throw new IOException("chromium --screenshot " + url + " failed: " + result.describe());
        }
    }

    private ProcessResult run(List<String> action) throws IOException {
        Files.createDirectories(profileRoot);
        Path profile = Files.createTempDirectory(profileRoot, "chromium-profile-");
        List<String> command = new ArrayList<>(List.of(
                EXECUTABLE.toString(),
                "--headless",
                "--disable-gpu",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-quic",
                "--no-first-run",
                "--user-data-dir=" + profile,
                "--virtual-time-budget=" + PAGE_TIME.toMillis()));
        command.addAll(action);
        return ChildProcessRunner.run(command, new byte[0], RUN_TIMEOUT);
    }
}
