package io.sluice.it.group;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;

/**
 * A consumer-group member run in its own JVM by {@link GroupMemberProcess}: subscribes to a topic with the
 * assignor class given as fourth argument (range, eager, by default) and the static group.instance.id given as
 * fifth (none by default), prints every
 * record it processed ({@code REC <partition> <offset>}) and flushes before committing (commit after processing),
 * and prints the partitions it owns after every rebalance ({@code OWNED <generation> <memberId> <p,p,..>}). A line
 * "stop" on stdin closes the consumer cleanly (LeaveGroup); killing the process is the crash case.
 * Not thread-safe; one per process.
 */
public final class GroupMemberMain {
    private static final Duration POLL = Duration.ofMillis(200);
    static final int STATIC_SESSION_TIMEOUT_MS = 45_000;

    private GroupMemberMain() {}

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        String groupId = args[2];
        String assignor = args.length > 3 ? args[3] : RangeAssignor.class.getName();
        String instanceId = args.length > 4 ? args[4] : null;
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        AtomicBoolean stop = new AtomicBoolean();
        Thread stdin = new Thread(
                () -> {
                    try (BufferedReader reader =
                            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = reader.readLine()) != null) {
                            if (line.trim().equals("stop")) {
                                break;
                            }
                        }
                    } catch (Exception ignored) {
                        // the parent went away: stop as well
                    }
                    stop.set(true);
                },
                "stdin");
        stdin.setDaemon(true);
        stdin.start();

        TreeSet<Integer> owned = new TreeSet<>();
        Properties props = GroupIt.consumerProps(bootstrap, groupId);
        props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, assignor);
        if (instanceId != null) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
            // A restarted static member must be back within its session: leave room for a JVM start on a busy box.
            props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Integer.toString(STATIC_SESSION_TIMEOUT_MS));
        }
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    partitions.forEach(p -> owned.remove(p.partition()));
                }

                @Override
                public void onPartitionsLost(Collection<TopicPartition> partitions) {
                    partitions.forEach(p -> owned.remove(p.partition()));
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    partitions.forEach(p -> owned.add(p.partition()));
                    StringBuilder list = new StringBuilder();
                    for (int p : owned) {
                        list.append(list.length() == 0 ? "" : ",").append(p);
                    }
                    out.println("OWNED " + consumer.groupMetadata().generationId() + " "
                            + consumer.groupMetadata().memberId() + " " + (list.length() == 0 ? "-" : list));
                    out.flush();
                }
            });
            while (!stop.get()) {
                ConsumerRecords<String, String> records = consumer.poll(POLL);
                if (records.isEmpty()) {
                    continue;
                }
                for (ConsumerRecord<String, String> record : records) {
                    out.println("REC " + record.partition() + " " + record.offset());
                }
                out.flush();
                try {
                    consumer.commitSync();
                } catch (RebalanceInProgressException | CommitFailedException e) {
                    // The group is rebalancing: the next poll completes it, and whatever was not committed is
                    // consumed again by its next owner (at least once, never skipped).
                    out.println("COMMIT-RETRY " + e.getClass().getSimpleName());
                    out.flush();
                }
            }
        }
        out.println("CLOSED");
        out.flush();
    }
}
