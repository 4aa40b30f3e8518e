package io.sluice.it.group;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.RangeAssignor;

/**
 * Parent-side handle of a {@link GroupMemberMain} JVM: reads its output into the partitions it owns now and the
 * offsets it processed. Thread-safe: the output pump writes, the test thread reads.
 */
final class GroupMemberProcess implements AutoCloseable {
    private static final int ERR_TAIL_LINES = 40;
    private final String name;
    private final Path errFile;
    private final Process process;
    private final Thread pump;
    private final Map<Integer, Set<Long>> processed = new ConcurrentHashMap<>();
    private final List<String> tail = new ArrayList<>();
    private volatile Owned owned;
    private volatile boolean closedCleanly;

    /** What the member said it owns after its latest rebalance. */
    record Owned(int generation, String memberId, Set<Integer> partitions) {}

    private GroupMemberProcess(String name, Path errFile, Process process) {
        this.name = name;
        this.errFile = errFile;
        this.process = process;
        this.pump = new Thread(this::pumpOutput, "member-" + name);
        this.pump.setDaemon(true);
        this.pump.start();
    }

    static GroupMemberProcess start(
            String name, String bootstrap, String topic, String groupId, String assignor, Path logDir)
            throws IOException {
        return start(
                name,
                new ProcessBuilder(
                        GroupIt.javaCommand(GroupMemberMain.class.getName(), bootstrap, topic, groupId, assignor)),
                logDir);
    }

    /** A static member: {@code instanceId} is its group.instance.id. */
    static GroupMemberProcess startStatic(
            String name, String bootstrap, String topic, String groupId, String instanceId, Path logDir)
            throws IOException {
        return start(
                name,
                new ProcessBuilder(GroupIt.javaCommand(
                        GroupMemberMain.class.getName(),
                        bootstrap,
                        topic,
                        groupId,
                        RangeAssignor.class.getName(),
                        instanceId)),
                logDir);
    }

    private static GroupMemberProcess start(String name, ProcessBuilder builder, Path logDir) throws IOException {
        Path errFile = logDir.resolve("member-" + name + ".err");
        builder.redirectError(errFile.toFile());
        return new GroupMemberProcess(name, errFile, builder.start());
    }

    private void pumpOutput() {
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                String[] parts = line.split(" ");
                if (parts[0].equals("REC")) {
                    processed
                            .computeIfAbsent(Integer.parseInt(parts[1]), p -> ConcurrentHashMap.newKeySet())
                            .add(Long.parseLong(parts[2]));
                } else if (parts[0].equals("OWNED")) {
                    Set<Integer> partitions = new TreeSet<>();
                    if (!parts[3].equals("-")) {
                        Arrays.stream(parts[3].split(","))
                                .map(Integer::parseInt)
                                .forEach(partitions::add);
                    }
                    owned = new Owned(Integer.parseInt(parts[1]), parts[2], partitions);
                } else if (parts[0].equals("CLOSED")) {
                    closedCleanly = true;
                }
                synchronized (tail) {
                    if (!parts[0].equals("REC")) {
                        tail.add(line);
                    }
                }
            }
        } catch (IOException e) {
            // the process died; what it printed so far has been read
        }
    }

    String name() {
        return name;
    }

    Owned owned() {
        return owned;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Offsets of {@code partition} this member processed (and printed before committing). */
    Set<Long> processed(int partition) {
        return processed.getOrDefault(partition, Set.of());
    }

    String describe() {
        String err;
        try {
            List<String> lines = java.nio.file.Files.readAllLines(errFile);
            err = String.join("\n  ", lines.subList(Math.max(0, lines.size() - ERR_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            err = e.toString();
        }
        synchronized (tail) {
            return name + (isAlive() ? " (alive)" : " (dead)") + " " + tail + "\n  stderr: " + err;
        }
    }

    /** Asks the member to close its consumer (LeaveGroup) and waits for the process to end. */
    void leave() throws IOException, InterruptedException {
        OutputStream stdin = process.getOutputStream();
        stdin.write("stop\n".getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("member " + name + " did not stop: " + describe());
        }
        pump.join(10_000);
        if (!closedCleanly) {
            throw new IllegalStateException("member " + name + " did not close cleanly: " + describe());
        }
    }

    /** SIGKILL: the member disappears without leaving the group. */
    void crash() throws InterruptedException {
        process.toHandle().destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        pump.join(10_000);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                crash();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
