package io.sluice.bench.metrics;

import io.sluice.broker.metrics.BrokerMetrics;
import io.sluice.broker.metrics.BrokerTopicMetrics;
import io.sluice.broker.network.RequestObserver;
import io.sluice.record.validate.ValidationObserver;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The metric updates of one request, as the broker makes them with {@code sluice.metrics.enable=true} (section 16 of
 * docs/benchmarks.md): a produce of one partition (topic meters, validation metrics, request metrics) and a
 * consumer's fetch of one partition (request metrics as Fetch and FetchConsumer, topic meters). The network layer's
 * clock reads are not in it. Run with {@code -prof gc} for the bytes allocated per request.
 *
 * <p>Not thread-safe; one instance per JMH thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RequestMetricsBenchmark {
    private static final String TOPIC = "bench";
    private static final short PRODUCE_VERSION = 9;
    private static final short FETCH_VERSION = 16;
    private static final int RECORDS_PER_BATCH = 16;
    private static final int BATCH_BYTES = 1_900;

    private BrokerMetrics metrics;
    private RequestObserver requests;
    private BrokerTopicMetrics topics;
    private ValidationObserver validation;
    private ProduceResponseData produceResponse;
    private FetchResponseData fetchResponse;
    private long nanos;

    @Setup
    public void setUp() {
        metrics = new BrokerMetrics(null, true);
        requests = metrics.requestObserver();
        topics = metrics.topics();
        validation = metrics.validationObserver();
        produceResponse = new ProduceResponseData()
                .setResponses(new ProduceResponseData.TopicProduceResponseCollection(
                        List.of(new ProduceResponseData.TopicProduceResponse()
                                        .setName(TOPIC)
                                        .setPartitionResponses(List.of(
                                                new ProduceResponseData.PartitionProduceResponse().setIndex(0))))
                                .iterator()));
        fetchResponse = new FetchResponseData()
                .setResponses(List.of(new FetchResponseData.FetchableTopicResponse()
                        .setTopic(TOPIC)
                        .setPartitions(List.of(new FetchResponseData.PartitionData()
                                .setPartitionIndex(0)
                                .setRecords(MemoryRecords.withRecords(
                                        Compression.NONE, new SimpleRecord(new byte[BATCH_BYTES])))))));
    }

    @TearDown
    public void tearDown() {
        metrics.close();
    }

    /** The times vary a little so the histograms see more than one value. */
    private long nextNanos() {
        nanos = (nanos + 337_123) % 9_000_000;
        return nanos;
    }

    /** A produce request of one partition: its topic meters, validation metrics and request metrics. */
    @Benchmark
    public void produce() {
        topics.onProduceRequest(TOPIC);
        validation.validated(1, 0, nextNanos() / 100);
        topics.onAppended(TOPIC, RECORDS_PER_BATCH, BATCH_BYTES);
        requests.onAnswered(ApiKeys.PRODUCE, PRODUCE_VERSION, false, produceResponse, 20_000, nextNanos(), 0, 40_000);
    }

    /** A consumer's fetch of one partition: request metrics (Fetch and FetchConsumer) and topic meters. */
    @Benchmark
    public void fetch() {
        requests.onAnswered(ApiKeys.FETCH, FETCH_VERSION, false, fetchResponse, 15_000, 90_000, nextNanos(), 60_000);
    }
}
