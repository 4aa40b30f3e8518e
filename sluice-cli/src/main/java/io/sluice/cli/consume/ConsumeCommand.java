package io.sluice.cli.consume;

import io.sluice.cli.CommandFailedException;
import io.sluice.cli.client.ClientOptions;
import io.sluice.cli.client.TopicOption;
import io.sluice.cli.console.Escapes;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sluice consume -t TOPIC}: prints records like kcat -C, reading partitions with
 * assign() (no consumer group). Not thread-safe; one per invocation.
 */
@Command(
        name = "consume",
        mixinStandardHelpOptions = true,
        description = "Print a topic's records, one per line (like kcat -C; no consumer group).")
public final class ConsumeCommand implements Callable<Integer> {
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(200);
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);
    private static final long SHUTDOWN_WAIT_SECONDS = 5;

    @Mixin
    ClientOptions client;

    @Mixin
    TopicOption topicOption;

    @Option(
            names = {"-p", "--partition"},
            paramLabel = "N",
            description = "Only this partition (repeatable; default: all).")
    List<Integer> partitions = new ArrayList<>();

    @Option(
            names = "-o",
            paramLabel = "OFFSET",
            defaultValue = "beginning",
            description =
                    "beginning, end, OFFSET, -N (N before the end) or s@TIMESTAMP_MS (default: ${DEFAULT-VALUE}).")
    String offset;

    @Option(names = "-c", paramLabel = "COUNT", description = "Exit after COUNT records.")
    Long count;

    @Option(names = "-e", description = "Exit when the end of every partition (as seen at start) is reached.")
    boolean exitAtEnd;

    @Option(names = "-K", paramLabel = "DELIM", description = "Print KEY<DELIM>VALUE (\\t and \\n escapes allowed).")
    String keyDelimiter;

    @Option(
            names = "-f",
            paramLabel = "FORMAT",
            description = "kcat format: %%t %%p %%o %%k %%s %%K %%S %%T %%h %%%% and \\n \\t escapes.")
    String format;

    @Option(
            names = "-D",
            paramLabel = "DELIM",
            defaultValue = "\\n",
            description = "End-of-record delimiter (default: \\n).")
    String endOfRecord;

    @Option(names = "-Z", description = "Print null keys and values as NULL.")
    boolean printNull;

    private final OutputStream rawOut;

    public ConsumeCommand() {
        this(System.out);
    }

    /** Writes records to {@code out} instead of stdout. */
    public ConsumeCommand(OutputStream out) {
        this.rawOut = out;
    }

    @Override
    public Integer call() throws Exception {
        StartOffset start = StartOffset.parse(offset);
        RecordFormat recordFormat = RecordFormat.of(
                format == null ? null : Escapes.unescape(format),
                keyDelimiter == null ? null : Escapes.unescape(keyDelimiter),
                Escapes.unescape(endOfRecord),
                printNull);
        if (count != null && count < 0) {
            throw new IllegalArgumentException("-c expects a count >= 0, got " + count);
        }
        OutputStream out = new BufferedOutputStream(rawOut);
        CountDownLatch finished = new CountDownLatch(1);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties())) {
            Thread hook = new Thread(() -> stopOnShutdown(consumer, finished), "sluice-consume-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                List<TopicPartition> assigned = assign(consumer);
                seek(consumer, assigned, start);
                consume(consumer, assigned, recordFormat, out);
            } catch (WakeupException stopped) {
                // SIGINT/SIGTERM: what was printed so far is flushed below.
            } finally {
                out.flush();
                finished.countDown();
                removeHook(hook);
            }
        }
        return 0;
    }

    Properties consumerProperties() {
        Properties props = client.toProperties("sluice-consume");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.putIfAbsent(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.putIfAbsent(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        // An offset outside the log is an error to report, not a silent jump.
        props.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        return props;
    }

    private List<TopicPartition> assign(KafkaConsumer<byte[], byte[]> consumer) {
        String topic = topicOption.topic();
        List<PartitionInfo> infos = consumer.partitionsFor(topic, METADATA_TIMEOUT);
        if (infos == null || infos.isEmpty()) {
            throw new CommandFailedException("topic '" + topic + "' does not exist");
        }
        List<TopicPartition> assigned = new ArrayList<>();
        for (PartitionInfo info : infos) {
            if (partitions.isEmpty() || partitions.contains(info.partition())) {
                assigned.add(new TopicPartition(topic, info.partition()));
            }
        }
        if (assigned.size() < partitions.size()) {
            throw new IllegalArgumentException(
                    "topic '" + topic + "' has partitions 0.." + (infos.size() - 1) + ", asked for " + partitions);
        }
        assigned.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
        consumer.assign(assigned);
        return assigned;
    }

    private static void seek(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> assigned, StartOffset start) {
        if (start.kind() == StartOffset.Kind.TIMESTAMP) {
            Map<TopicPartition, Long> query = new HashMap<>();
            assigned.forEach(tp -> query.put(tp, start.value()));
            Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query, METADATA_TIMEOUT);
            Map<TopicPartition, Long> ends = consumer.endOffsets(assigned, METADATA_TIMEOUT);
            for (TopicPartition tp : assigned) {
                OffsetAndTimestamp at = found.get(tp);
                consumer.seek(tp, at == null ? ends.get(tp) : at.offset());
            }
            return;
        }
        Map<TopicPartition, Long> beginnings = consumer.beginningOffsets(assigned, METADATA_TIMEOUT);
        Map<TopicPartition, Long> ends = consumer.endOffsets(assigned, METADATA_TIMEOUT);
        for (TopicPartition tp : assigned) {
            consumer.seek(tp, start.resolve(beginnings.get(tp), ends.get(tp)));
        }
    }

    private void consume(
            KafkaConsumer<byte[], byte[]> consumer,
            List<TopicPartition> assigned,
            RecordFormat recordFormat,
            OutputStream out)
            throws Exception {
        Map<TopicPartition, Long> ends = exitAtEnd ? consumer.endOffsets(assigned, METADATA_TIMEOUT) : Map.of();
        long printed = 0;
        while (!(count != null && printed >= count) && !(exitAtEnd && reachedEnd(consumer, assigned, ends))) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL_TIMEOUT)) {
                recordFormat.write(record, out);
                printed++;
                if (count != null && printed >= count) {
                    break;
                }
            }
            out.flush();
        }
    }

    private static boolean reachedEnd(
            KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> assigned, Map<TopicPartition, Long> ends) {
        for (TopicPartition tp : assigned) {
            if (consumer.position(tp, METADATA_TIMEOUT) < ends.get(tp)) {
                return false;
            }
        }
        return true;
    }

    private static void stopOnShutdown(KafkaConsumer<byte[], byte[]> consumer, CountDownLatch finished) {
        consumer.wakeup();
        try {
            finished.await(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or about to; nothing to remove.
        }
    }
}
