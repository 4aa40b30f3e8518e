package io.sluice.it.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.AlterPartitionRequestData;
import org.apache.kafka.common.message.AlterPartitionResponseData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.SimpleRecord;
import org.apache.kafka.common.requests.AlterPartitionRequest;
import org.apache.kafka.common.requests.AlterPartitionResponse;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochRequest;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;

/**
 * Hand-made replication requests for partition 0 of one topic, with every field a follower or a leader would set
 * open to forgery (replica id, current leader epoch, fetch offset, last fetched epoch, leader and partition epochs),
 * and the one partition's answer picked out of each response.
 *
 * <p>Thread-safe; stateless.
 */
final class ReplicationRequests {
    /** Versions the broker registers and kafka-clients 3.9 writes: Fetch with topic ids and ReplicaState. */
    static final short PRODUCE_VERSION = 9;

    static final short FETCH_VERSION = 15;
    static final short OFFSET_FOR_LEADER_EPOCH_VERSION = 4;
    static final short ALTER_PARTITION_VERSION = 2;
    /** What Fetch and OffsetForLeaderEpoch carry for "no epoch given"; replica id of a consumer. */
    static final int NO_EPOCH = RecordBatch.NO_PARTITION_LEADER_EPOCH;

    static final int CONSUMER = -1;
    private static final int PARTITION_MAX_BYTES = 1 << 20;

    private ReplicationRequests() {}

    /** One uncompressed batch of records keyed {@code keys}, each value {@code "value-of-<key>"}. */
    static ProduceRequest.Builder produce(String topic, short acks, int timeoutMs, List<String> keys) {
        SimpleRecord[] records = new SimpleRecord[keys.size()];
        for (int i = 0; i < records.length; i++) {
            records[i] =
                    new SimpleRecord(System.currentTimeMillis(), bytes(keys.get(i)), bytes("value-of-" + keys.get(i)));
        }
        ProduceRequestData data = new ProduceRequestData()
                .setAcks(acks)
                .setTimeoutMs(timeoutMs)
                .setTopicData(new ProduceRequestData.TopicProduceDataCollection(List.of(
                                new ProduceRequestData.TopicProduceData()
                                        .setName(topic)
                                        .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData()
                                                .setIndex(0)
                                                .setRecords(MemoryRecords.withRecords(Compression.NONE, records)))))
                        .iterator()));
        return ProduceRequest.forCurrentMagic(data);
    }

    static ProduceResponseData.PartitionProduceResponse partition(ProduceResponse response) {
        return response.data()
                .responses()
                .iterator()
                .next()
                .partitionResponses()
                .get(0);
    }

    /** A Fetch of partition 0 as {@code replicaId} would send it; {@link #NO_EPOCH} leaves an epoch out. */
    static FetchRequest.Builder fetch(
            String topic,
            Uuid topicId,
            int replicaId,
            int currentLeaderEpoch,
            long fetchOffset,
            int lastFetchedEpoch,
            int maxWaitMs) {
        Map<TopicPartition, FetchRequest.PartitionData> partitions = Map.of(
                new TopicPartition(topic, 0),
                new FetchRequest.PartitionData(
                        topicId,
                        fetchOffset,
                        -1L,
                        PARTITION_MAX_BYTES,
                        epoch(currentLeaderEpoch),
                        epoch(lastFetchedEpoch)));
        return replicaId == CONSUMER
                ? FetchRequest.Builder.forConsumer(FETCH_VERSION, maxWaitMs, 0, partitions)
                : FetchRequest.Builder.forReplica(FETCH_VERSION, replicaId, -1L, maxWaitMs, 0, partitions);
    }

    static FetchResponseData.PartitionData partition(FetchResponse response) {
        return response.data().responses().get(0).partitions().get(0);
    }

    /** Offsets and keys of the records a fetch answer carries, in offset order. */
    static Map<Long, String> records(FetchResponseData.PartitionData partition) {
        Map<Long, String> out = new LinkedHashMap<>();
        for (RecordBatch batch : FetchResponse.recordsOrFail(partition).batches()) {
            for (Record record : batch) {
                out.put(
                        record.offset(),
                        StandardCharsets.UTF_8.decode(record.key()).toString());
            }
        }
        return out;
    }

    /** OffsetForLeaderEpoch for partition 0, as a consumer ({@link #CONSUMER}) or a follower would ask. */
    static OffsetsForLeaderEpochRequest.Builder offsetForLeaderEpoch(
            String topic, int replicaId, int currentLeaderEpoch, int leaderEpoch) {
        OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection topics =
                new OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection();
        topics.add(new OffsetForLeaderEpochRequestData.OffsetForLeaderTopic()
                .setTopic(topic)
                .setPartitions(List.of(new OffsetForLeaderEpochRequestData.OffsetForLeaderPartition()
                        .setPartition(0)
                        .setCurrentLeaderEpoch(currentLeaderEpoch)
                        .setLeaderEpoch(leaderEpoch))));
        return replicaId == CONSUMER
                ? OffsetsForLeaderEpochRequest.Builder.forConsumer(topics)
                : OffsetsForLeaderEpochRequest.Builder.forFollower(OFFSET_FOR_LEADER_EPOCH_VERSION, topics, replicaId);
    }

    static OffsetForLeaderEpochResponseData.EpochEndOffset partition(OffsetsForLeaderEpochResponse response) {
        return response.data().topics().iterator().next().partitions().get(0);
    }

    /** AlterPartition from broker {@code senderId} proposing {@code newIsr} for partition 0 at the given epochs. */
    static AlterPartitionRequest.Builder alterPartition(
            Uuid topicId, int senderId, int leaderEpoch, int partitionEpoch, List<Integer> newIsr) {
        List<AlterPartitionRequestData.BrokerState> isr = new ArrayList<>();
        for (int id : newIsr) {
            isr.add(new AlterPartitionRequestData.BrokerState().setBrokerId(id).setBrokerEpoch(-1));
        }
        AlterPartitionRequestData data = new AlterPartitionRequestData()
                .setBrokerId(senderId)
                .setBrokerEpoch(-1)
                .setTopics(List.of(new AlterPartitionRequestData.TopicData()
                        .setTopicId(topicId)
                        .setPartitions(List.of(new AlterPartitionRequestData.PartitionData()
                                .setPartitionIndex(0)
                                .setLeaderEpoch(leaderEpoch)
                                .setPartitionEpoch(partitionEpoch)
                                .setNewIsrWithEpochs(isr)))));
        return new AlterPartitionRequest.Builder(data, true);
    }

    /** The answer's top-level error, else partition 0's. */
    static Errors error(AlterPartitionResponse response) {
        AlterPartitionResponseData data = response.data();
        if (data.errorCode() != Errors.NONE.code() || data.topics().isEmpty()) {
            return Errors.forCode(data.errorCode());
        }
        return Errors.forCode(data.topics().get(0).partitions().get(0).errorCode());
    }

    private static Optional<Integer> epoch(int epoch) {
        return epoch == NO_EPOCH ? Optional.empty() : Optional.of(epoch);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
