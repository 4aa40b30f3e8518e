import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Group-coordinator workload run against any Kafka-protocol broker (Sluice or Apache Kafka) with the Java client:
 *   rebalance eager|cooperative : 10 members on a 20-partition topic, then ROUNDS x (an 11th member joins, then
 *                                 leaves); prints the median time until the group is stable again (all members
 *                                 in one generation, every partition owned exactly once).
 *   commit <consumers>          : that many members, each in its own group, commitSync in a loop for 10 s;
 *                                 prints commits/s in total.
 * Run as a single-file program: java -cp "<kafka-clients jars>" GroupBench.java <bootstrap> <mode> [arg]
 * Not thread-safe apart from the member threads it starts itself; one run per process.
 */
public class GroupBench {
    static final int MEMBERS = 10;
    static final int PARTITIONS = 20;
    static final int ROUNDS = 5;
    static final long STABLE_TIMEOUT_MS = 120_000;
    static final long COMMIT_SECONDS = 10;

    /** One member polling on its own thread, publishing what it owns after every rebalance. */
    static final class Member implements Runnable {
        final KafkaConsumer<byte[], byte[]> consumer;
        final String topic;
        final AtomicBoolean running = new AtomicBoolean(true);
        volatile int generation = -1;
        volatile Set<Integer> owned = Set.of();
        final Thread thread;

        Member(Properties props, String topic, String name) {
            this.consumer = new KafkaConsumer<>(props);
            this.topic = topic;
            this.thread = new Thread(this, name);
            thread.start();
        }

        public void run() {
            Set<Integer> mine = new HashSet<>();
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                public void onPartitionsRevoked(Collection<TopicPartition> ps) { ps.forEach(p -> mine.remove(p.partition())); }
                public void onPartitionsLost(Collection<TopicPartition> ps) { ps.forEach(p -> mine.remove(p.partition())); }
                public void onPartitionsAssigned(Collection<TopicPartition> ps) {
                    ps.forEach(p -> mine.add(p.partition()));
                    owned = Set.copyOf(mine);
                    generation = consumer.groupMetadata().generationId();
                }
            });
            while (running.get()) {
                consumer.poll(Duration.ofMillis(50));
            }
            consumer.close();
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join(60_000);
        }
    }

    static Properties props(String bootstrap, String group, String assignor) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, assignor);
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000");
        return p;
    }

    static void createTopic(String bootstrap, String topic, int partitions) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
        }
    }

    static boolean stable(List<Member> members) {
        Set<Integer> generations = new HashSet<>();
        Set<Integer> seen = new HashSet<>();
        for (Member m : members) {
            generations.add(m.generation);
            for (int p : m.owned) {
                if (!seen.add(p)) {
                    return false;
                }
            }
        }
        return generations.size() == 1 && !generations.contains(-1) && seen.size() == PARTITIONS;
    }

    static long awaitStable(List<Member> members, long startNanos) throws InterruptedException {
        long deadline = System.currentTimeMillis() + STABLE_TIMEOUT_MS;
        while (!stable(members)) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("group not stable within " + STABLE_TIMEOUT_MS + " ms");
            }
            Thread.sleep(2);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    static void rebalance(String bootstrap, String mode) throws Exception {
        String assignor = mode.equals("cooperative") ? CooperativeStickyAssignor.class.getName() : RangeAssignor.class.getName();
        String topic = "group-bench-" + mode + "-" + System.nanoTime();
        String group = topic + "-group";
        createTopic(bootstrap, topic, PARTITIONS);
        List<Member> members = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < MEMBERS; i++) {
            members.add(new Member(props(bootstrap, group, assignor), topic, "member-" + i));
        }
        long first = awaitStable(members, start);
        List<Long> joins = new ArrayList<>();
        List<Long> leaves = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            long t = System.nanoTime();
            Member extra = new Member(props(bootstrap, group, assignor), topic, "extra-" + round);
            members.add(extra);
            joins.add(awaitStable(members, t));
            t = System.nanoTime();
            members.remove(extra);
            extra.stop();
            leaves.add(awaitStable(members, t));
        }
        for (Member m : members) {
            m.stop();
        }
        System.out.printf("RESULT rebalance-%s first_stable_ms=%d join_median_ms=%d leave_median_ms=%d joins=%s leaves=%s%n",
                mode, first, median(joins), median(leaves), joins, leaves);
    }

    static void commit(String bootstrap, int consumers) throws Exception {
        String topic = "group-bench-commit-" + System.nanoTime();
        createTopic(bootstrap, topic, consumers);
        AtomicLong commits = new AtomicLong();
        AtomicBoolean measuring = new AtomicBoolean(false);
        AtomicBoolean done = new AtomicBoolean(false);
        Map<Integer, Throwable> failures = new ConcurrentHashMap<>();
        List<Thread> threads = new ArrayList<>();
        java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(consumers);
        for (int i = 0; i < consumers; i++) {
            int index = i;
            Thread t = new Thread(() -> {
                try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props(bootstrap, topic + "-g" + index,
                        RangeAssignor.class.getName()))) {
                    TopicPartition tp = new TopicPartition(topic, index);
                    c.subscribe(List.of(topic));
                    while (c.assignment().isEmpty()) {
                        c.poll(Duration.ofMillis(50));
                    }
                    ready.countDown();
                    long offset = 0;
                    while (!done.get()) {
                        c.commitSync(Map.of(tp, new OffsetAndMetadata(++offset, "bench")));
                        if (measuring.get()) {
                            commits.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failures.put(index, e);
                    ready.countDown();
                }
            }, "committer-" + i);
            t.start();
            threads.add(t);
        }
        ready.await(120, TimeUnit.SECONDS);
        Thread.sleep(1000);
        measuring.set(true);
        long t0 = System.nanoTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(COMMIT_SECONDS));
        measuring.set(false);
        long elapsedNanos = System.nanoTime() - t0;
        done.set(true);
        for (Thread t : threads) {
            t.join(60_000);
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("committers failed: " + failures);
        }
        System.out.printf("RESULT commit-%d commits_per_s=%.0f%n", consumers,
                commits.get() / (elapsedNanos / 1e9));
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        switch (args[1]) {
            case "rebalance" -> rebalance(bootstrap, args[2]);
            case "commit" -> commit(bootstrap, Integer.parseInt(args[2]));
            default -> throw new IllegalArgumentException("mode must be rebalance or commit, was " + args[1]);
        }
    }
}
