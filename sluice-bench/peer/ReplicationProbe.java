import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Cluster-side steps of run-replication-comparison.sh, against any Kafka-protocol cluster (Sluice or Apache Kafka),
 * with the Java client's Admin and producer. Every step is bounded by the timeout it is given and ends with one
 * {@code RESULT key=value ...} line on stdout (the script parses only that line); progress goes to stderr.
 *
 * <pre>
 *   create   BOOTSTRAP TOPIC PARTITIONS RF MIN_ISR TIMEOUT_MS
 *            creates the topic (min.insync.replicas=MIN_ISR) and waits until every partition has a leader;
 *            RESULT create_ms=.. led=.. full_isr=.. partitions=.. leaders=id:count,..
 *   preflight BOOTSTRAP TOPIC ACKS COMPRESSION TIMEOUT_MS
 *            sends one record and waits for its acknowledgement (delivery.timeout.ms=TIMEOUT_MS);
 *            RESULT ok=true ms=..   or   RESULT ok=false error=ExceptionClass message="..."
 *   failover BOOTSTRAP TOPIC KILL|TERM TIMEOUT_MS POLL_MS AVOID_CONTROLLER(true|false) ID=PID[,ID=PID...]
 *            picks the broker that leads the most partitions of TOPIC (not the active controller when
 *            AVOID_CONTROLLER and another broker leads as many or fewer but some), sends it SIGKILL or SIGTERM
 *            itself, then polls Metadata (Admin describeTopics, every POLL_MS) until every partition has a
 *            leader other than that broker, and watches /proc until its process is gone;
 *            RESULT victim=.. victim_led=.. controller=.. exit_ms=.. all_led_ms=.. remaining=.. polls=..
 * </pre>
 *
 * Times are from just before the signal is sent (System.nanoTime) to the first Metadata response that showed every
 * partition led by a live broker (resolution: POLL_MS plus one Metadata round trip), and to the first /proc check
 * that found the process gone or a zombie (resolution 5 ms). A step that does not finish in time prints -1 for the
 * missing time and, for failover, how many partitions were still without a live leader.
 *
 * Run as a single-file program: java -cp "<kafka-clients jars>" ReplicationProbe.java MODE ARGS...
 * Not thread-safe apart from the exit watcher it starts itself; one step per process. MoveProbe (compiled with it)
 * uses its Admin, describe, RESULT and clock helpers, which are package-private for that.
 */
public class ReplicationProbe {

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            usage();
        }
        switch (args[0]) {
            case "create" -> {
                need(args, 7);
                create(args[1], args[2], Integer.parseInt(args[3]), Short.parseShort(args[4]), args[5],
                        Long.parseLong(args[6]));
            }
            case "preflight" -> {
                need(args, 6);
                preflight(args[1], args[2], args[3], args[4], Long.parseLong(args[5]));
            }
            case "failover" -> {
                need(args, 8);
                failover(args[1], args[2], args[3], Long.parseLong(args[4]), Long.parseLong(args[5]),
                        Boolean.parseBoolean(args[6]), parsePids(args[7]));
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
        System.err.println("usage: ReplicationProbe create BOOTSTRAP TOPIC PARTITIONS RF MIN_ISR TIMEOUT_MS\n"
                + "       ReplicationProbe preflight BOOTSTRAP TOPIC ACKS COMPRESSION TIMEOUT_MS\n"
                + "       ReplicationProbe failover BOOTSTRAP TOPIC KILL|TERM TIMEOUT_MS POLL_MS AVOID_CONTROLLER"
                + " ID=PID[,ID=PID...]");
        System.exit(2);
    }

    private static Map<Integer, Long> parsePids(String list) {
        Map<Integer, Long> pids = new TreeMap<>();
        for (String pair : list.split(",")) {
            String[] idPid = pair.split("=", 2);
            pids.put(Integer.parseInt(idPid[0].trim()), Long.parseLong(idPid[1].trim()));
        }
        return pids;
    }

    static Admin admin(String bootstrap, int requestTimeoutMs) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, requestTimeoutMs);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Math.max(requestTimeoutMs, 2 * requestTimeoutMs));
        // A dead broker is refused at once on loopback: try the next node quickly instead of backing off for 1 s.
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, 20);
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200);
        props.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 20);
        props.put(AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, 200);
        return Admin.create(props);
    }

    // ---- create ----------------------------------------------------------------------------------------------

    private static void create(String bootstrap, String topic, int partitions, short rf, String minIsr, long timeoutMs)
            throws Exception {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        try (Admin admin = admin(bootstrap, 30_000)) {
            NewTopic newTopic = new NewTopic(topic, partitions, rf).configs(Map.of("min.insync.replicas", minIsr));
            try {
                admin.createTopics(List.of(newTopic)).all().get(timeoutMs, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    result("create_ms=-1 error=" + describe(e.getCause()));
                    return;
                }
            }
            String last = "no Metadata answer yet";
            while (System.nanoTime() < deadline) {
                try {
                    TopicDescription d = describe(admin, topic, 5_000);
                    int led = 0;
                    int fullIsr = 0;
                    for (TopicPartitionInfo p : d.partitions()) {
                        if (p.leader() != null && !p.leader().isEmpty()) {
                            led++;
                        }
                        if (p.isr().size() == p.replicas().size()) {
                            fullIsr++;
                        }
                    }
                    last = "led=" + led + " full_isr=" + fullIsr + " partitions=" + d.partitions().size()
                            + " leaders=" + leaderCounts(d);
                    if (led == partitions && d.partitions().size() == partitions) {
                        result("create_ms=" + millisSince(start) + " " + last);
                        return;
                    }
                } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                    last = "error=" + describe(e instanceof ExecutionException ? e.getCause() : e);
                }
                Thread.sleep(100);
            }
            result("create_ms=-1 timeout_ms=" + timeoutMs + " " + last);
        }
    }

    static TopicDescription describe(Admin admin, String topic, long timeoutMs) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(timeoutMs, TimeUnit.MILLISECONDS).get(topic);
    }

    private static String leaderCounts(TopicDescription d) {
        Map<Integer, Integer> counts = new TreeMap<>();
        for (TopicPartitionInfo p : d.partitions()) {
            int leader = p.leader() == null || p.leader().isEmpty() ? -1 : p.leader().id();
            counts.merge(leader, 1, Integer::sum);
        }
        StringBuilder s = new StringBuilder();
        counts.forEach((id, n) -> s.append(s.length() == 0 ? "" : ",").append(id).append(':').append(n));
        return s.toString();
    }

    // ---- preflight -------------------------------------------------------------------------------------------

    private static void preflight(String bootstrap, String topic, String acks, String compression, long timeoutMs) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, acks);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        int requestTimeout = (int) Math.min(timeoutMs, 10_000);
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, requestTimeout);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.max(timeoutMs, requestTimeout));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeoutMs);
        long start = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, "preflight".getBytes(StandardCharsets.UTF_8)))
                    .get(timeoutMs + 5_000, TimeUnit.MILLISECONDS);
            result("ok=true ms=" + millisSince(start));
        } catch (ExecutionException e) {
            result("ok=false ms=" + millisSince(start) + " error=" + describe(e.getCause()));
        } catch (Exception e) {
            result("ok=false ms=" + millisSince(start) + " error=" + describe(e));
        }
    }

    // ---- failover --------------------------------------------------------------------------------------------

    private static void failover(String bootstrap, String topic, String signal, long timeoutMs, long pollMs,
                                 boolean avoidController, Map<Integer, Long> pids) throws Exception {
        if (!signal.equals("KILL") && !signal.equals("TERM")) {
            usage();
        }
        TopicDescription before;
        int controller;
        try (Admin admin = admin(bootstrap, 10_000)) {
            before = describe(admin, topic, 30_000);
            controller = activeController(admin);
        }
        Map<Integer, Integer> led = new HashMap<>();
        for (TopicPartitionInfo p : before.partitions()) {
            if (p.leader() != null && !p.leader().isEmpty()) {
                led.merge(p.leader().id(), 1, Integer::sum);
            }
        }
        int victim = -1;
        for (int id : pids.keySet()) {
            if (avoidController && id == controller && pids.size() > 1) {
                continue;
            }
            if (victim < 0 || led.getOrDefault(id, 0) > led.getOrDefault(victim, 0)) {
                victim = id;
            }
        }
        long pid = pids.get(victim);
        List<String> survivors = new ArrayList<>();
        for (Node n : nodesOf(before)) {
            if (n.id() != victim) {
                survivors.add(n.host() + ":" + n.port());
            }
        }
        String pollBootstrap = survivors.isEmpty() ? bootstrap : String.join(",", Set.copyOf(survivors));
        System.err.printf("leaders before: %s; controller %d; victim broker %d (pid %d) leads %d of %d partitions%n",
                leaderCounts(before), controller, victim, pid, led.getOrDefault(victim, 0),
                before.partitions().size());

        try (Admin poller = admin(pollBootstrap, 2_000)) {
            describe(poller, topic, 10_000); // connected and warm before the clock starts
            ProcessHandle process = ProcessHandle.of(pid).orElseThrow(
                    () -> new IllegalStateException("no process " + pid + " for broker"));
            ExitWatcher exit = new ExitWatcher(pid);
            long start = System.nanoTime();
            boolean sent = signal.equals("KILL") ? process.destroyForcibly() : process.destroy();
            if (!sent) {
                result("victim=" + victim + " error=signal_not_sent");
                return;
            }
            exit.start(start);
            long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            long allLedMs = -1;
            int remaining = before.partitions().size();
            int polls = 0;
            String lastError = "";
            while (System.nanoTime() < deadline) {
                try {
                    TopicDescription now = describe(poller, topic, 2_000);
                    polls++;
                    remaining = 0;
                    for (TopicPartitionInfo p : now.partitions()) {
                        if (p.leader() == null || p.leader().isEmpty() || p.leader().id() == victim) {
                            remaining++;
                        }
                    }
                    if (remaining == 0 && now.partitions().size() == before.partitions().size()) {
                        allLedMs = millisSince(start);
                        System.err.printf("every partition led by a live broker after %d ms: %s%n", allLedMs,
                                leaderCounts(now));
                        break;
                    }
                } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                    lastError = describe(e instanceof ExecutionException ? e.getCause() : e);
                }
                Thread.sleep(pollMs);
            }
            // The process may still be on its way out (controlled shutdown): wait for it within the same deadline.
            long exitMs = exit.awaitMillis(Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            result("victim=" + victim + " victim_led=" + led.getOrDefault(victim, 0) + " partitions="
                    + before.partitions().size() + " controller=" + controller + " signal=" + signal
                    + " exit_ms=" + exitMs + " all_led_ms=" + allLedMs + " remaining=" + remaining
                    + " polls=" + polls + " timeout_ms=" + timeoutMs
                    + (allLedMs < 0 && !lastError.isEmpty() ? " last_error=" + lastError : ""));
        }
    }

    /** The active controller: KRaft's quorum leader where the cluster answers DescribeQuorum, else Metadata's. */
    private static int activeController(Admin admin) {
        try {
            return admin.describeMetadataQuorum().quorumInfo().get(10, TimeUnit.SECONDS).leaderId();
        } catch (Exception notKraft) {
            try {
                Node node = admin.describeCluster().controller().get(10, TimeUnit.SECONDS);
                return node == null ? -1 : node.id();
            } catch (Exception e) {
                return -1;
            }
        }
    }

    private static Collection<Node> nodesOf(TopicDescription d) {
        Map<Integer, Node> nodes = new TreeMap<>();
        for (TopicPartitionInfo p : d.partitions()) {
            for (Node n : p.replicas()) {
                nodes.put(n.id(), n);
            }
        }
        return nodes.values();
    }

    /** Polls /proc/PID/stat every 5 ms: gone or a zombie (state Z, not yet reaped by its parent) counts as exited. */
    private static final class ExitWatcher {
        private final Path stat;
        private volatile long exitMs = -1;
        private Thread thread;

        ExitWatcher(long pid) {
            this.stat = Path.of("/proc", Long.toString(pid), "stat");
        }

        void start(long startNanos) {
            thread = new Thread(() -> {
                while (!exited()) {
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                exitMs = millisSince(startNanos);
            }, "exit-watcher");
            thread.setDaemon(true);
            thread.start();
        }

        private boolean exited() {
            try {
                String s = Files.readString(stat);
                int close = s.lastIndexOf(')');
                return close < 0 || close + 2 >= s.length() || s.charAt(close + 2) == 'Z'
                        || s.charAt(close + 2) == 'X';
            } catch (NoSuchFileException e) {
                return true;
            } catch (IOException e) {
                return true;
            }
        }

        long awaitMillis(long waitMs) throws InterruptedException {
            thread.join(Math.max(1, waitMs));
            return exitMs;
        }
    }

    static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    /** One token for the RESULT line: the exception's class, then its message quoted with spaces kept. */
    static String describe(Throwable t) {
        String message = t.getMessage() == null ? "" : t.getMessage().replace('"', '\'').replace('\n', ' ');
        return t.getClass().getSimpleName() + " message=\"" + message + "\"";
    }

    static void result(String fields) {
        System.out.println("RESULT " + fields);
        System.out.flush();
    }
}
