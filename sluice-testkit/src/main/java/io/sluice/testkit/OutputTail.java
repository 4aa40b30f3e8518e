package io.sluice.testkit;

import java.util.ArrayDeque;

/**
 * The last lines a child process printed, kept for failure messages; older lines are dropped so that a chatty
 * process never grows the test JVM's heap.
 *
 * <p>Thread-safe; one per child process, appended to by its output pump, read by the test thread.
 */
public final class OutputTail {

    private final int maxLines;
    private final ArrayDeque<String> lines;
    private long droppedLines;

    /** @param maxLines how many of the most recent lines to keep; at least 1 */
    public OutputTail(int maxLines) {
        if (maxLines < 1) {
            throw new IllegalArgumentException("maxLines must be at least 1, was " + maxLines);
        }
        this.maxLines = maxLines;
        this.lines = new ArrayDeque<>(maxLines);
    }

    public synchronized void append(String line) {
        if (lines.size() == maxLines) {
            lines.removeFirst();
            droppedLines++;
        }
        lines.addLast(line);
    }

    /** The kept lines joined by newlines, preceded by a note of how many earlier lines were dropped. */
    public synchronized String text() {
        StringBuilder text = new StringBuilder();
        if (droppedLines > 0) {
            text.append("[... ").append(droppedLines).append(" earlier lines dropped ...]\n");
        }
        for (String line : lines) {
            text.append(line).append('\n');
        }
        return text.toString();
    }
}
