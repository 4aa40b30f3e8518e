package io.sluice.log;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Human-readable lines saying what recovery repaired ("truncated 37 bytes of torn tail in orders-3/... at
 * position 4096"). Each line is also logged at WARN. Thread-safe: logs may be opened in parallel.
 */
public final class RecoveryReport {
    private static final Logger LOG = LoggerFactory.getLogger(RecoveryReport.class);

    private final List<String> lines = new ArrayList<>();

    public synchronized void add(String line) {
        lines.add(line);
        LOG.warn("recovery: {}", line);
    }

    /** A copy of the lines so far, in the order they were added. */
    public synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    public synchronized boolean isEmpty() {
        return lines.isEmpty();
    }

    @Override
    public synchronized String toString() {
        return lines.isEmpty() ? "nothing to repair" : String.join("\n", lines);
    }
}
