package io.sluice.broker.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Request metrics, error counting from responses and the per-topic meters, read back through an MBean server. */
class RequestAndTopicMetricsTest {
    private final MBeanServer server = MBeanServerFactory.newMBeanServer();
    private final KafkaMetrics metrics = new KafkaMetrics(server);
    private final BrokerTopicMetrics topics = new BrokerTopicMetrics(metrics);
    private final RequestMetrics requests = new RequestMetrics(metrics);
    private final RequestMetricsObserver observer = new RequestMetricsObserver(requests, topics);

    @AfterEach
    void close() {
        metrics.close();
    }

    private long count(String name) throws Exception {
        return (Long) server.getAttribute(new ObjectName(name), "Count");
    }

    @Test
    void shouldCountRequestsPerVersionAndErrorsPerPartitionOfAProduceResponse() throws Exception {
        ProduceResponseData response = new ProduceResponseData();
        ProduceResponseData.TopicProduceResponse topic = new ProduceResponseData.TopicProduceResponse().setName("t");
        topic.partitionResponses().add(new ProduceResponseData.PartitionProduceResponse().setIndex(0));
        topic.partitionResponses()
                .add(new ProduceResponseData.PartitionProduceResponse()
                        .setIndex(1)
                        .setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code()));
        response.responses().add(topic);
        observer.onAnswered(ApiKeys.PRODUCE, (short) 9, false, response, 0, 2_400_000, 0, 0);
        observer.onAnswered(ApiKeys.PRODUCE, (short) 11, false, null, 0, 0, 0, 0);

        assertEquals(1, count("kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce,version=9"));
        assertEquals(1, count("kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce,version=11"));
        assertEquals(1, count("kafka.network:type=RequestMetrics,name=ErrorsPerSec,request=Produce,error=NONE"));
        assertEquals(
                1,
                count(
                        "kafka.network:type=RequestMetrics,name=ErrorsPerSec,request=Produce,error=NOT_LEADER_OR_FOLLOWER"));
        ObjectName local = new ObjectName("kafka.network:type=RequestMetrics,name=LocalTimeMs,request=Produce");
        assertEquals(2L, server.getAttribute(local, "Count"));
        assertEquals(2.0, server.getAttribute(local, "Max"), "2.4 ms rounds to 2, as Kafka records milliseconds");
    }

    @Test
    void shouldCountAFetchUnderFetchAndItsConsumerOrFollowerNameWithBytesOutForConsumersOnly() throws Exception {
        FetchResponseData consumerAnswer = fetchResponse("t", 150, Errors.NONE);
        observer.onAnswered(ApiKeys.FETCH, (short) 16, false, consumerAnswer, 0, 0, 0, 0);
        observer.onAnswered(ApiKeys.FETCH, (short) 16, true, fetchResponse("t", 150, Errors.NONE), 0, 0, 0, 0);
        observer.onAnswered(
                ApiKeys.FETCH, (short) 16, false, fetchResponse("t", 0, Errors.CORRUPT_MESSAGE), 0, 0, 0, 0);
        observer.onAnswered(
                ApiKeys.FETCH, (short) 16, false, fetchResponse("t", 0, Errors.OFFSET_OUT_OF_RANGE), 0, 0, 0, 0);
        observer.onAnswered(
                ApiKeys.FETCH,
                (short) 16,
                false,
                fetchResponse("gone", 0, Errors.UNKNOWN_TOPIC_OR_PARTITION),
                0,
                0,
                0,
                0);

        assertEquals(5, count("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Fetch"));
        assertEquals(4, count("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=FetchConsumer"));
        assertEquals(1, count("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=FetchFollower"));
        assertEquals(
                consumerAnswer.responses().get(0).partitions().get(0).records().sizeInBytes(),
                count("kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec,topic=t"),
                "the follower's bytes are not out");
        assertEquals(4, count("kafka.server:type=BrokerTopicMetrics,name=TotalFetchRequestsPerSec,topic=t"));
        assertEquals(
                1,
                count("kafka.server:type=BrokerTopicMetrics,name=FailedFetchRequestsPerSec,topic=t"),
                "a corrupt read fails; an offset out of range does not (Kafka's readFromLog)");
        assertEquals(
                1,
                count(
                        "kafka.network:type=RequestMetrics,name=ErrorsPerSec,request=FetchConsumer,error=UNKNOWN_TOPIC_OR_PARTITION"));
        assertFalse(
                server.isRegistered(
                        new ObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec,topic=gone")),
                "no meters for a topic that does not exist");
    }

    @Test
    void shouldReadFetchTimesFromTheConsumerAndFollowerFetchesTogether() throws Exception {
        long millis = TimeUnit.MILLISECONDS.toNanos(1);
        observer.onAnswered(ApiKeys.FETCH, (short) 16, false, fetchResponse("t", 1, Errors.NONE), 0, 3 * millis, 0, 0);
        observer.onAnswered(ApiKeys.FETCH, (short) 16, true, fetchResponse("t", 1, Errors.NONE), 0, 7 * millis, 0, 0);
        observer.onAnswered(ApiKeys.FETCH, (short) 16, true, fetchResponse("t", 1, Errors.NONE), 0, 8 * millis, 0, 0);
        ObjectName fetch = new ObjectName("kafka.network:type=RequestMetrics,name=LocalTimeMs,request=Fetch");
        assertEquals(3L, server.getAttribute(fetch, "Count"));
        assertEquals(3.0, server.getAttribute(fetch, "Min"));
        assertEquals(8.0, server.getAttribute(fetch, "Max"));
        assertEquals(6.0, (double) server.getAttribute(fetch, "Mean"), 1e-9);
        ObjectName follower =
                new ObjectName("kafka.network:type=RequestMetrics,name=LocalTimeMs,request=FetchFollower");
        assertEquals(7.0, server.getAttribute(follower, "Min"));
        assertEquals(
                3,
                count("kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Fetch,version=16"),
                "Fetch counts its requests itself");
        assertThrows(
                IllegalStateException.class,
                () -> requests.of(ApiKeys.FETCH).record((short) 16, 0, 0, 0, 0),
                "Fetch's times are recorded through its parts");
    }

    @Test
    void shouldCountTheTopLevelErrorOfOtherResponses() throws Exception {
        observer.onAnswered(ApiKeys.METADATA, (short) 12, false, new MetadataResponseData(), 0, 0, 0, 0);
        observer.onAnswered(
                ApiKeys.API_VERSIONS,
                (short) 3,
                false,
                new org.apache.kafka.common.message.ApiVersionsResponseData()
                        .setErrorCode(Errors.UNSUPPORTED_VERSION.code()),
                0,
                0,
                0,
                0);
        assertEquals(1, count("kafka.network:type=RequestMetrics,name=ErrorsPerSec,request=Metadata,error=NONE"));
        assertEquals(
                1,
                count(
                        "kafka.network:type=RequestMetrics,name=ErrorsPerSec,request=ApiVersions,error=UNSUPPORTED_VERSION"));
        requests.of(ApiKeys.METADATA).markError((short) 32_000, 1);
        assertEquals(
                1,
                count(
                        "kafka.network:type=RequestMetrics,name=ErrorsPerSec,request=Metadata,error=UNKNOWN_SERVER_ERROR"),
                "a code Kafka does not know counts as UNKNOWN_SERVER_ERROR");
    }

    @Test
    void shouldCreateATopicsMetersTogetherAndRemoveThemWithTheTopic() throws Exception {
        topics.onAppended("t", 10, 1_000);
        Set<String> created =
                server.queryNames(new ObjectName("kafka.server:type=BrokerTopicMetrics,topic=t,*"), null).stream()
                        .map(n -> n.getKeyProperty("name"))
                        .collect(Collectors.toSet());
        assertEquals(
                Set.of(
                        "MessagesInPerSec",
                        "BytesInPerSec",
                        "BytesOutPerSec",
                        "TotalProduceRequestsPerSec",
                        "FailedProduceRequestsPerSec",
                        "TotalFetchRequestsPerSec",
                        "FailedFetchRequestsPerSec"),
                created);
        assertEquals(10, count("kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=t"));
        assertEquals(1_000, count("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec"), "all topics");
        topics.removeTopic("t");
        assertEquals(
                Set.of(), server.queryNames(new ObjectName("kafka.server:type=BrokerTopicMetrics,topic=t,*"), null));
        assertEquals(
                1_000, count("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec"), "all topics keep counting");
    }

    @Test
    void shouldRegisterFurtherMeterFamiliesOnceAndRemoveThemWithTheTopic() throws Exception {
        MeterFamily replicationIn = topics.meterFamily("ReplicationBytesInPerSec", "bytes");
        assertSame(replicationIn, topics.meterFamily("ReplicationBytesInPerSec", "bytes"));
        replicationIn.mark("t", 512);
        assertEquals(512, count("kafka.server:type=BrokerTopicMetrics,name=ReplicationBytesInPerSec,topic=t"));
        assertEquals(512, count("kafka.server:type=BrokerTopicMetrics,name=ReplicationBytesInPerSec"));
        topics.onAppended("u", 1, 1);
        assertTrue(
                server.isRegistered(
                        new ObjectName("kafka.server:type=BrokerTopicMetrics,name=ReplicationBytesInPerSec,topic=u")),
                "created with the topic's other meters");
        topics.removeTopic("t");
        assertFalse(server.isRegistered(
                new ObjectName("kafka.server:type=BrokerTopicMetrics,name=ReplicationBytesInPerSec,topic=t")));
    }

    @Test
    void shouldRegisterAllTopicsOnlyMetersForReassignmentTraffic() throws Exception {
        topics.allTopicsMeter("ReassignmentBytesInPerSec", "bytes").mark(512);
        assertSame(
                topics.allTopicsMeter("ReassignmentBytesInPerSec", "bytes"),
                topics.allTopicsMeter("ReassignmentBytesInPerSec", "bytes"));
        topics.onAppended("t", 1, 1);
        assertEquals(512, count("kafka.server:type=BrokerTopicMetrics,name=ReassignmentBytesInPerSec"));
        assertFalse(
                server.isRegistered(
                        new ObjectName("kafka.server:type=BrokerTopicMetrics,name=ReassignmentBytesInPerSec,topic=t")),
                "Kafka keeps reassignment traffic for all topics only");
    }

    @Test
    void shouldMarkIsrShrinksAndExpandsAsTheCommittedIsrChanges() throws Exception {
        BrokerGauges gauges = new BrokerGauges(metrics, List::of, () -> null);
        gauges.onIsrChanged(3, 2);
        gauges.onIsrChanged(2, 3);
        gauges.onIsrChanged(2, 3);
        gauges.onIsrChanged(3, 3);
        assertEquals(1, count("kafka.server:type=ReplicaManager,name=IsrShrinksPerSec"));
        assertEquals(2, count("kafka.server:type=ReplicaManager,name=IsrExpandsPerSec"));
        assertEquals(
                0,
                ((Number) server.getAttribute(
                                new ObjectName("kafka.controller:type=KafkaController,name=ActiveControllerCount"),
                                "Value"))
                        .intValue(),
                "no cluster node yet: not the controller");
        assertTrue(server.isRegistered(
                new ObjectName("kafka.server:type=ReplicaFetcherManager,name=MaxLag,clientId=Replica")));
    }

    private static FetchResponseData fetchResponse(String topic, int valueBytes, Errors error) {
        MemoryRecords records = valueBytes == 0
                ? MemoryRecords.EMPTY
                : MemoryRecords.withRecords(
                        org.apache.kafka.common.compress.Compression.NONE, new SimpleRecord(new byte[valueBytes]));
        FetchResponseData.FetchableTopicResponse answer =
                new FetchResponseData.FetchableTopicResponse().setTopic(topic);
        answer.partitions()
                .add(new FetchResponseData.PartitionData()
                        .setPartitionIndex(0)
                        .setErrorCode(error.code())
                        .setRecords(records));
        FetchResponseData response = new FetchResponseData();
        response.responses().add(answer);
        return response;
    }
}
