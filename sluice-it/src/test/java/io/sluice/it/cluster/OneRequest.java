package io.sluice.it.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.CreateTopicsRequest;
import org.apache.kafka.common.requests.CreateTopicsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.OffsetFetchRequest;
import org.apache.kafka.common.requests.OffsetFetchResponse;

/**
 * One Kafka request to one chosen broker over a fresh connection, without a client's routing or retries: what that
 * broker itself answers (a partition error code, NOT_CONTROLLER), which the Java clients hide.
 *
 * <p>Thread-safe; stateless.
 */
final class OneRequest {
    /** Highest versions the broker registers for these APIs; both are flexible versions kafka-clients 3.9 writes. */
    static final short METADATA_VERSION = 12;

    static final short CREATE_TOPICS_VERSION = 7;
    /** The first OffsetFetch version that names groups (KIP-709). */
    static final short OFFSET_FETCH_VERSION = 8;
    /** Above the broker's own wait for its controller (30 s), so the broker's answer arrives, whatever it is. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private OneRequest() {}

    /** The broker's Metadata answer for {@code topic}, without auto-creation. */
    static MetadataResponseData.MetadataResponseTopic metadata(String bootstrap, String topic) throws IOException {
        MetadataResponse response =
                send(bootstrap, new MetadataRequest.Builder(List.of(topic), false), ApiKeys.METADATA, METADATA_VERSION);
        return response.data().topics().find(topic);
    }

    /** The broker's CreateTopics answer for one topic with {@code partitions} partitions, replication factor 1. */
    static CreateTopicsResponseData.CreatableTopicResult createTopic(String bootstrap, String topic, int partitions)
            throws IOException {
        CreateTopicsRequestData.CreatableTopicCollection topics =
                new CreateTopicsRequestData.CreatableTopicCollection();
        topics.add(new CreateTopicsRequestData.CreatableTopic()
                .setName(topic)
                .setNumPartitions(partitions)
                .setReplicationFactor((short) 1));
        CreateTopicsResponse response = send(
                bootstrap,
                new CreateTopicsRequest.Builder(new CreateTopicsRequestData()
                        .setTopics(topics)
                        .setTimeoutMs(ClusterClients.REQUEST_TIMEOUT_MS)),
                ApiKeys.CREATE_TOPICS,
                CREATE_TOPICS_VERSION);
        return response.data().topics().find(topic);
    }

    /** The broker's DescribeConfigs (v4) answer for one key of {@code topic}, or of broker {@code brokerId} when topic is null. */
    static org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult describeConfig(
            String bootstrap, String topic, String brokerId, String key) throws IOException {
        org.apache.kafka.common.message.DescribeConfigsRequestData data =
                new org.apache.kafka.common.message.DescribeConfigsRequestData()
                        .setResources(List.of(
                                new org.apache.kafka.common.message.DescribeConfigsRequestData.DescribeConfigsResource()
                                        .setResourceType(topic != null ? (byte) 2 : (byte) 4)
                                        .setResourceName(topic != null ? topic : brokerId)
                                        .setConfigurationKeys(List.of(key))));
        org.apache.kafka.common.requests.DescribeConfigsResponse response = send(
                bootstrap,
                new org.apache.kafka.common.requests.DescribeConfigsRequest.Builder(data),
                ApiKeys.DESCRIBE_CONFIGS,
                (short) 4);
        var result = response.data().results().get(0);
        if (result.errorCode() != 0) {
            throw new IOException(
                    "DescribeConfigs of " + key + " failed: " + result.errorCode() + " " + result.errorMessage());
        }
        return result.configs().isEmpty() ? null : result.configs().get(0);
    }

    /**
     * What the broker answers an OffsetFetch (v8) of every committed offset of {@code group}: the group-level error,
     * NOT_COORDINATOR on a broker that does not coordinate the group.
     */
    static Errors offsetFetchError(String bootstrap, String group) throws IOException {
        Map<String, List<TopicPartition>> allOfGroup = new HashMap<>();
        allOfGroup.put(group, null);
        OffsetFetchResponse response = send(
                bootstrap,
                new OffsetFetchRequest.Builder(allOfGroup, false, false),
                ApiKeys.OFFSET_FETCH,
                OFFSET_FETCH_VERSION);
        return response.groupLevelError(group);
    }

    private static <R extends AbstractResponse> R send(
            String bootstrap, AbstractRequest.Builder<?> builder, ApiKeys api, short version) throws IOException {
        return RawConnection.once(bootstrap, READ_TIMEOUT, builder, api, version);
    }
}
