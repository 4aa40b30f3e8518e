import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.tools.reassign.ReassignPartitionsCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Cluster-side steps of run-move-comparison.sh, against any Kafka-protocol cluster (Sluice or Apache Kafka), with
 * the Java client and Kafka's own reassignment tool. Every step is bounded by the timeout it is given and ends with
 * one {@code RESULT key=value ...} line on stdout (the script parses only that line); progress goes to stderr.
 *
 * <pre>
 *   move   BOOTSTRAP TOPIC PARTITION TARGET_ID TIMEOUT_MS POLL_MS CLK_TCK SOURCE_PID TARGET_PID WINDOW_FILE
 *          moves the partition to TARGET_ID alone with ReassignPartitionsCommand.executeAssignment (what
 *          kafka-reassign-partitions.sh --execute runs, without throttles), then polls ListPartitionReassignments
 *          and Metadata every POLL_MS until no reassignment is listed and the partition's replicas are [TARGET_ID]
 *          with TARGET_ID leading; CPU is utime+stime of both broker processes (/proc/PID/stat) over that span;
 *          writes "START_EPOCH_MS END_EPOCH_MS" to WINDOW_FILE;
 *          RESULT move_ms=.. isr_ms=.. leader_ms=.. source_cpu_s=.. target_cpu_s=.. source_jit_s=.. target_jit_s=.. polls=..
 *   steady BOOTSTRAP TOPIC RATE RECORD_SIZE MAX_MS SKIP_MS STOP_FILE WINDOW_FILE
 *          sends RATE records/s (acks=1, linger.ms=0, no compression) round-robin over the topic's partitions
 *          until STOP_FILE exists or MAX_MS have passed; latency runs from the record's scheduled send time to its
 *          acknowledgement (a late send counts its wait, so a stalled broker is not hidden by a stalled sender).
 *          Records scheduled inside WINDOW_FILE's span count when that file exists, else every record after SKIP_MS;
 *          RESULT count=.. p50_ms=.. p99_ms=.. p999_ms=.. max_ms=.. errors=.. sent=..
 * </pre>
 *
 * Topics are created with ReplicationProbe create (RF 1: its leaders=ID:COUNT list is where each partition landed);
 * the Admin, describe, RESULT and clock helpers are ReplicationProbe's, compiled together with this file.
 * Before the clock starts, the probe runs the tool's read-only paths once (generateAssignment, ListPartitionReassignments,
 * DescribeCluster) so that its own JSON and admin class loading is not counted as the cluster's time.
 * The move's clock starts just before executeAssignment and stops at the first poll that found the move done
 * (resolution: POLL_MS plus two round trips). Run as: java -cp "CLASSES:KAFKA_LIB/*" MoveProbe MODE ARGS...
 * Not thread-safe apart from the producer's callbacks in steady; one step per process.
 */
public class MoveProbe {

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            usage();
        }
        switch (args[0]) {
            case "move" -> {
                need(args, 11);
                move(args[1], new TopicPartition(args[2], Integer.parseInt(args[3])), Integer.parseInt(args[4]),
                        Long.parseLong(args[5]), Long.parseLong(args[6]), Integer.parseInt(args[7]),
                        Long.parseLong(args[8]), Long.parseLong(args[9]), Path.of(args[10]));
            }
            case "steady" -> {
                need(args, 9);
                steady(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                        Long.parseLong(args[5]), Long.parseLong(args[6]), Path.of(args[7]), Path.of(args[8]));
            }
            default -> usage();
        }
    }

    private static void need(String[] args, int count) {
        if (args.length != count) {
            usage();
        }
    }

    private static void usage() {
        System.err.println("usage: MoveProbe move BOOTSTRAP TOPIC PARTITION TARGET_ID TIMEOUT_MS POLL_MS CLK_TCK"
                + " SOURCE_PID TARGET_PID WINDOW_FILE\n"
                + "       MoveProbe steady BOOTSTRAP TOPIC RATE RECORD_SIZE MAX_MS SKIP_MS STOP_FILE WINDOW_FILE");
        System.exit(2);
    }

    // ---- move ------------------------------------------------------------------------------------------------

    private static void move(String bootstrap, TopicPartition tp, int target, long timeoutMs, long pollMs, int clkTck,
                             long sourcePid, long targetPid, Path windowFile) throws Exception {
        String json = "{\"version\":1,\"partitions\":[{\"topic\":\"" + tp.topic() + "\",\"partition\":"
                + tp.partition() + ",\"replicas\":[" + target + "],\"log_dirs\":[\"any\"]}]}";
        try (Admin admin = ReplicationProbe.admin(bootstrap, 30_000)) {
            TopicDescription before = ReplicationProbe.describe(admin, tp.topic(), 10_000);
            System.err.println("before: replicas " + before.partitions().get(tp.partition()).replicas() + "; moving "
                    + tp + " to broker " + target);
            // Loads the tool's JSON and admin paths in this JVM before the clock starts (read-only calls): the move's
            // seconds are the cluster's, not this probe's class loading.
            ReassignPartitionsCommand.generateAssignment(
                    admin, "{\"version\":1,\"topics\":[{\"topic\":\"" + tp.topic() + "\"}]}", String.valueOf(target),
                    false);
            admin.listPartitionReassignments().reassignments().get(10, TimeUnit.SECONDS);
            admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
            long source0 = cpuTicks(sourcePid);
            long target0 = cpuTicks(targetPid);
            long sourceJit0 = jitTicks(sourcePid);
            long targetJit0 = jitTicks(targetPid);
            long self = ProcessHandle.current().pid();
            long probe0 = cpuTicks(self);
            long probeJit0 = jitTicks(self);
            long startEpochMs = System.currentTimeMillis();
            long start = System.nanoTime();
            // What kafka-reassign-partitions.sh --execute --reassignment-json-file runs (no throttle: -1, -1).
            ReassignPartitionsCommand.executeAssignment(admin, false, json, -1L, -1L, 10_000L, Time.SYSTEM);
            long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            long isrMs = -1;
            long leaderMs = -1;
            int polls = 0;
            String last = "";
            while (System.nanoTime() < deadline) {
                Thread.sleep(pollMs);
                try {
                    Map<TopicPartition, PartitionReassignment> ongoing = admin.listPartitionReassignments(Set.of(tp))
                            .reassignments().get(10, TimeUnit.SECONDS);
                    TopicPartitionInfo p =
                            ReplicationProbe.describe(admin, tp.topic(), 10_000).partitions().get(tp.partition());
                    polls++;
                    List<Integer> replicaIds = p.replicas().stream().map(Node::id).toList();
                    if (isrMs < 0 && p.isr().stream().anyMatch(n -> n.id() == target)) {
                        isrMs = ReplicationProbe.millisSince(start);
                    }
                    boolean leads = p.leader() != null && !p.leader().isEmpty() && p.leader().id() == target;
                    if (leaderMs < 0 && leads) {
                        leaderMs = ReplicationProbe.millisSince(start);
                    }
                    last = "replicas=" + replicaIds + " isr=" + p.isr().stream().map(Node::id).toList()
                            + " leader=" + (p.leader() == null ? "none" : p.leader().id())
                            + " listed=" + ongoing.containsKey(tp);
                    if (!ongoing.containsKey(tp) && replicaIds.equals(List.of(target)) && leads) {
                        long moveMs = ReplicationProbe.millisSince(start);
                        long endEpochMs = System.currentTimeMillis();
                        double sourceCpu = (cpuTicks(sourcePid) - source0) / (double) clkTck;
                        double targetCpu = (cpuTicks(targetPid) - target0) / (double) clkTck;
                        double sourceJit = (jitTicks(sourcePid) - sourceJit0) / (double) clkTck;
                        double targetJit = (jitTicks(targetPid) - targetJit0) / (double) clkTck;
                        // what the measuring itself cost the machine during the move (its polls, its JIT)
                        System.err.printf("probe cpu %.2f s, jit %.2f s%n", (cpuTicks(self) - probe0) / (double) clkTck,
                                (jitTicks(self) - probeJit0) / (double) clkTck);
                        Files.writeString(windowFile, startEpochMs + " " + endEpochMs + "\n");
                        System.err.println("done after " + moveMs + " ms: " + last);
                        ReplicationProbe.result(String.format("move_ms=%d isr_ms=%d leader_ms=%d source_cpu_s=%.2f"
                                + " target_cpu_s=%.2f source_jit_s=%.2f target_jit_s=%.2f polls=%d", moveMs, isrMs,
                                leaderMs, sourceCpu, targetCpu, sourceJit, targetJit, polls));
                        return;
                    }
                } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                    last = "error=" + ReplicationProbe.describe(e instanceof ExecutionException ? e.getCause() : e);
                }
            }
            ReplicationProbe.result("move_ms=-1 isr_ms=" + isrMs + " leader_ms=" + leaderMs + " polls=" + polls
                    + " timeout_ms=" + timeoutMs + " last=\"" + last + "\"");
        }
    }

    /** utime + stime of a process in clock ticks (fields 14 and 15 of /proc/PID/stat, every thread counted). */
    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /**
     * utime + stime of the process's JIT compiler threads (HotSpot names them "C1 CompilerThreadN" and
     * "C2 CompilerThreadN"; /proc shows the first 15 characters), in clock ticks: the warm-up share of a move's CPU
     * in a JVM that never ran that code before.
     */
    private static long jitTicks(long pid) throws IOException {
        long total = 0;
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException gone) {
                    continue;
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    total += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                }
            }
        }
        return total;
    }

    // ---- steady ----------------------------------------------------------------------------------------------

    private static void steady(String bootstrap, String topic, int rate, int recordSize, long maxMs, long skipMs,
                               Path stopFile, Path windowFile) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        int partitions;
        try (Admin admin = ReplicationProbe.admin(bootstrap, 30_000)) {
            partitions = ReplicationProbe.describe(admin, topic, 10_000).partitions().size();
        }
        long intervalNanos = TimeUnit.SECONDS.toNanos(1) / rate;
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8, (long) rate * (maxMs / 1000 + 1));
        long[] scheduledMs = new long[capacity];   // scheduled send time, ms since start
        long[] latencyMicros = new long[capacity]; // -1 until acknowledged, -2 on error
        Arrays.fill(latencyMicros, -1);
        AtomicLong errors = new AtomicLong();
        byte[] value = new byte[recordSize];
        Arrays.fill(value, (byte) 'x');
        long startEpochMs = System.currentTimeMillis();
        long start = System.nanoTime();
        int sent = 0;
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            while (sent < capacity) {
                long scheduled = start + sent * intervalNanos;
                long now = System.nanoTime();
                if (now - start > TimeUnit.MILLISECONDS.toNanos(maxMs)) {
                    break;
                }
                if (scheduled > now) {
                    long sleepNanos = scheduled - now;
                    Thread.sleep(sleepNanos / 1_000_000, (int) (sleepNanos % 1_000_000));
                    continue;
                }
                if (sent % rate == 0 && Files.exists(stopFile)) {
                    break;
                }
                final int i = sent;
                scheduledMs[i] = TimeUnit.NANOSECONDS.toMillis(scheduled - start);
                producer.send(new ProducerRecord<>(topic, i % partitions, null, value), (metadata, e) -> {
                    if (e != null) {
                        errors.incrementAndGet();
                        latencyMicros[i] = -2;
                    } else {
                        latencyMicros[i] = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - scheduled);
                    }
                });
                sent++;
            }
            producer.flush();
        }
        long from = skipMs;
        long to = Long.MAX_VALUE;
        if (Files.exists(windowFile)) {
            String[] span = Files.readString(windowFile).trim().split("\\s+");
            from = Long.parseLong(span[0]) - startEpochMs;
            to = Long.parseLong(span[1]) - startEpochMs;
        }
        long[] window = new long[sent];
        int n = 0;
        for (int i = 0; i < sent; i++) {
            if (scheduledMs[i] >= from && scheduledMs[i] <= to && latencyMicros[i] >= 0) {
                window[n++] = latencyMicros[i];
            }
        }
        Arrays.sort(window, 0, n);
        ReplicationProbe.result(String.format("count=%d p50_ms=%.1f p99_ms=%.1f p999_ms=%.1f max_ms=%.1f errors=%d"
                        + " sent=%d window_ms=%d", n, percentile(window, n, 0.50), percentile(window, n, 0.99),
                percentile(window, n, 0.999), n == 0 ? -1.0 : window[n - 1] / 1000.0, errors.get(), sent,
                Math.min(to, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)) - from));
    }

    private static double percentile(long[] sorted, int n, double q) {
        if (n == 0) {
            return -1;
        }
        int index = (int) Math.min(n - 1, Math.ceil(q * n) - 1);
        return sorted[Math.max(0, index)] / 1000.0;
    }
}
