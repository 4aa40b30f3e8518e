package io.sluice.it.group;

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A consumer-group member run in its own JVM by {@link GroupMemberProcess}: subscribes to a topic, prints every
 * record it processed ({@code REC <partition> <offset>}) and flushes before committing (commit after processing),
 * and prints the partitions it owns after every rebalance ({@code OWNED <generation> <memberId> <p,p,..>}). A line
 * "stop" on stdin closes the consumer cleanly (LeaveGroup); killing the process is the crash case.
 * Not thread-safe; one per process.
 */
public final class GroupMemberMain {
    private static final Duration POLL = Duration.ofMillis(200);

    private GroupMemberMain() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        String groupId = args[2];
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        AtomicBoolean stop = new AtomicBoolean();
        Thread stdin = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
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
        }, "stdin");
        stdin.setDaemon(true);
        stdin.start();

        TreeSet<Integer> owned = new TreeSet<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(GroupIt.consumerProps(bootstrap, groupId))) {
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
                consumer.commitSync();
            }
        }
        out.println("CLOSED");
        out.flush();
    }
}
