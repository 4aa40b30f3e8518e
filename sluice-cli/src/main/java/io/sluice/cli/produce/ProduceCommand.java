package io.sluice.cli.produce;

import io.sluice.cli.client.ClientOptions;
import io.sluice.cli.client.KeyValue;
import io.sluice.cli.client.TopicOption;
import io.sluice.cli.console.Escapes;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice produce -t TOPIC}: one record per stdin line, like kcat -P.
 * Not thread-safe; one per invocation.
 */
@Command(
        name = "produce",
        mixinStandardHelpOptions = true,
        description = "Produce stdin to a topic, one record per line (like kcat -P).")
public final class ProduceCommand implements Callable<Integer> {
    /** Largest accepted input line: the largest record a default broker accepts is far smaller. */
    static final int MAX_LINE_BYTES = 64 * 1024 * 1024;

    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Mixin
    TopicOption topicOption;

    @Option(
            names = {"-p", "--partition"},
            paramLabel = "N",
            description = "Partition (default: the producer's partitioner).")
    Integer partition;

    @Option(
            names = "-K",
            paramLabel = "DELIM",
            description = "Key delimiter: KEY<DELIM>VALUE per line (\\t and \\n escapes allowed).")
    String keyDelimiter;

    @Option(
            names = {"-k", "--key"},
            paramLabel = "KEY",
            description = "Key of every record (without -K).")
    String fixedKey;

    @Option(names = "-H", paramLabel = "NAME=VALUE", description = "Header added to every record (repeatable).")
    List<String> headers = new ArrayList<>();

    @Option(names = "-Z", description = "Send empty keys and values as null (kcat -Z).")
    boolean emptyAsNull;

    @Option(
            names = {"-z", "--compression"},
            paramLabel = "CODEC",
            defaultValue = "none",
            description = "none, gzip, snappy, lz4 or zstd (default: ${DEFAULT-VALUE}).")
    String compression;

    @Option(
            names = "--acks",
            paramLabel = "ACKS",
            defaultValue = "all",
            description = "0, 1 or all/-1 (default: ${DEFAULT-VALUE}).")
    String acks;

    private final InputStream in;

    public ProduceCommand() {
        this(System.in);
    }

    /** Reads lines from {@code in} instead of stdin. */
    public ProduceCommand(InputStream in) {
        this.in = in;
    }

    @Override
    public Integer call() throws Exception {
        if (keyDelimiter != null && fixedKey != null) {
            throw new IllegalArgumentException("-K and -k exclude each other");
        }
        LineRecordParser parser = new LineRecordParser(
                keyDelimiter == null ? null : Escapes.unescape(keyDelimiter).getBytes(StandardCharsets.UTF_8),
                fixedKey == null ? null : fixedKey.getBytes(StandardCharsets.UTF_8),
                emptyAsNull);
        List<Header> recordHeaders = headers(headers);
        String topic = topicOption.topic();
        AtomicLong failed = new AtomicLong();
        AtomicReference<Exception> firstError = new AtomicReference<>();
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProperties())) {
            LineReader lines = new LineReader(in, MAX_LINE_BYTES);
            while (lines.next()) {
                LineRecord record = parser.parse(lines.bytes(), lines.length());
                // Failures are counted by the callback and reported after flush(), so the future is not needed.
                var unused = producer.send(
                        new ProducerRecord<>(topic, partition, record.key(), record.value(), recordHeaders),
                        (metadata, error) -> {
                            if (error != null) {
                                failed.incrementAndGet();
                                firstError.compareAndSet(null, error);
                            }
                        });
                sent++;
            }
            producer.flush();
        }
        if (failed.get() > 0) {
            spec.commandLine()
                    .getErr()
                    .println("sluice produce: " + failed.get() + " of " + sent + " records failed, first error: "
                            + firstError.get());
            spec.commandLine().getErr().flush();
            return 1;
        }
        return 0;
    }

    Properties producerProperties() {
        Properties props = client.toProperties("sluice-produce");
        props.putIfAbsent(ProducerConfig.ACKS_CONFIG, acks);
        props.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return props;
    }

    /** -H NAME=VALUE entries as record headers, in the order given (a name may repeat). */
    static List<Header> headers(List<String> entries) {
        List<Header> result = new ArrayList<>(entries.size());
        for (String entry : entries) {
            Map<String, String> one = KeyValue.parseAll("-H", List.of(entry));
            Map.Entry<String, String> header = one.entrySet().iterator().next();
            result.add(new RecordHeader(header.getKey(), header.getValue().getBytes(StandardCharsets.UTF_8)));
        }
        return result;
    }
}
