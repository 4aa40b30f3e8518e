package io.sluice.bench.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The CPU time another process has used, in nanoseconds, in all and by thread group. On Linux it is the sum of its live
 * threads' run time from {@code /proc/<pid>/task/<tid>/schedstat} (the scheduler's own nanosecond count, where
 * {@code /proc/<pid>/stat} and {@link ProcessHandle.Info#totalCpuDuration()} round to 10 ms clock ticks, too coarse
 * for a phase of a hundred milliseconds), grouped by the thread's name without its number ({@code GC Thread#1} and
 * {@code GC Thread#0} are {@code GC Thread}); a thread that ends between two readings takes its time with it, so this
 * suits processes whose threads live on (a broker's event loops and schedulers). Elsewhere it falls back to
 * {@link ProcessHandle}, as one group.
 *
 * <p>Not thread-safe; one per measured process.
 */
final class ProcessCpu {
    private final ProcessHandle process;
    private final Path tasks;
    /** The threads seen at the last reading, to count those that ended (their time is lost, see above). */
    private Set<String> lastThreads = new HashSet<>();

    private int endedThreads;

    ProcessCpu(ProcessHandle process) {
        this.process = process;
        this.tasks = Path.of("/proc", Long.toString(process.pid()), "task");
    }

    /** CPU time used so far by each thread group (only differences count). */
    Map<String, Long> byGroup() {
        Map<String, Long> groups = new TreeMap<>();
        if (!Files.isDirectory(tasks)) {
            groups.put(
                    "process", process.info().totalCpuDuration().orElseThrow().toNanos());
            return groups;
        }
        Set<String> seen = new HashSet<>();
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                String name = read(thread.resolve("comm"));
                String schedstat = read(thread.resolve("schedstat"));
                if (name != null && schedstat != null) {
                    groups.merge(group(name), runNanos(schedstat), Long::sum);
                    seen.add(thread.getFileName().toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + tasks, e);
        }
        lastThreads.removeAll(seen);
        endedThreads += lastThreads.size();
        lastThreads = seen;
        return groups;
    }

    /** How many threads seen at one reading were gone at the next. */
    int endedThreads() {
        return endedThreads;
    }

    /** The sum without the JIT compiler threads (whose work ends once the code is compiled). */
    static long totalWithoutCompilers(Map<String, Long> groups) {
        long sum = 0;
        for (Map.Entry<String, Long> group : groups.entrySet()) {
            if (!isCompiler(group.getKey())) {
                sum += group.getValue();
            }
        }
        return sum;
    }

    /** HotSpot's C1 and C2 compiler threads (names cut to 15 characters by the kernel). */
    static boolean isCompiler(String group) {
        return group.startsWith("C1 Compiler") || group.startsWith("C2 Compiler");
    }

    /** Adds {@code after - before} of each group to {@code into}; a group that shrank (its threads ended) adds 0. */
    static void addDifference(Map<String, Long> before, Map<String, Long> after, Map<String, Long> into) {
        for (Map.Entry<String, Long> group : after.entrySet()) {
            long used = group.getValue() - before.getOrDefault(group.getKey(), 0L);
            into.merge(group.getKey(), Math.max(0, used), Long::sum);
        }
    }

    /** The thread's name without the number that tells it from its siblings. */
    static String group(String threadName) {
        int end = threadName.length();
        while (end > 0 && (Character.isDigit(threadName.charAt(end - 1)) || threadName.charAt(end - 1) == '#')) {
            end--;
        }
        String trimmed = threadName.substring(0, end).strip();
        while (trimmed.endsWith("-")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed.isEmpty() ? threadName : trimmed;
    }

    /** The first field of a schedstat line: time spent on a CPU. */
    private static long runNanos(String schedstat) {
        int end = schedstat.indexOf(' ');
        return Long.parseLong(end < 0 ? schedstat.trim() : schedstat.substring(0, end));
    }

    /** The file's text, null when the thread ended meanwhile. */
    private static String read(Path file) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (NoSuchFileException e) {
            return null;
        }
    }
}
