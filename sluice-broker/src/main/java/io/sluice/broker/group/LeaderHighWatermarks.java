package io.sluice.broker.group;

import io.sluice.broker.interbroker.BrokerClient;
import io.sluice.broker.replica.ReplicaManager;
import io.sluice.broker.security.ClientSecurity;
import io.sluice.broker.topic.Partition;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * High watermarks for consumer lag, from the partition's leader as Kafka's tool reads them: a partition this broker
 * leads is read live; one led elsewhere comes from a ListOffsets ("latest", read_uncommitted) to its leader, asked by
 * {@link #refresh} and cached until the next refresh; until the leader answered, this broker's follower replica's
 * high watermark (which trails the leader's by at most one fetch) stands in, and without a replica it is unknown.
 *
 * <p>Thread-safe: {@link #refresh} runs the requests on its own thread ({@code sluice-consumer-lag-<id>}); reads
 * never block.
 */
public final class LeaderHighWatermarks implements ConsumerLag.HighWatermarks, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderHighWatermarks.class);
    private static final short LIST_OFFSETS_VERSION = 7;
    private static final int MAX_RESPONSE_BYTES = 4 << 20;
    private static final int TIMEOUT_MS = 10_000;

    private final BiFunction<String, Integer, Partition> hosted;
    private final Supplier<ClusterState> state;
    private final BrokerClient client;
    private final ExecutorService thread;
    private final Map<TopicPartition, Long> fromLeaders = new ConcurrentHashMap<>();

    /**
     * @param hosted   this broker's replica of a partition, or null
     * @param state    the newest cluster state (leaders and their addresses)
     * @param security how connections to other brokers are secured (the inter-broker listener's)
     */
    public LeaderHighWatermarks(
            int selfId,
            BiFunction<String, Integer, Partition> hosted,
            Supplier<ClusterState> state,
            ClientSecurity security) {
        this.hosted = hosted;
        this.state = state;
        this.client =
                new BrokerClient("sluice-broker-" + selfId + "-consumer-lag", MAX_RESPONSE_BYTES, TIMEOUT_MS, security);
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sluice-consumer-lag-" + selfId);
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public long highWatermark(String topic, int partition) {
        Partition local = hosted.apply(topic, partition);
        if (local != null && local.isLeader()) {
            return local.highWatermark();
        }
        Long remote = fromLeaders.get(new TopicPartition(topic, partition));
        if (remote != null) {
            return remote;
        }
        return local == null ? GroupLag.PartitionLag.UNKNOWN : local.highWatermark();
    }

    /** Asks the leaders of the partitions in {@code groups} not led here for their high watermarks, in the background. */
    public void refresh(List<GroupOffsets> groups) {
        Set<TopicPartition> wanted = new HashSet<>();
        for (GroupOffsets group : groups) {
            for (GroupOffsets.Committed c : group.committed()) {
                wanted.add(new TopicPartition(c.topic(), c.partition()));
            }
        }
        try {
            thread.execute(() -> askLeaders(wanted));
        } catch (RejectedExecutionException e) {
            LOG.debug("Consumer lag refresh skipped: closing");
        }
    }

    private void askLeaders(Set<TopicPartition> wanted) {
        fromLeaders.keySet().retainAll(wanted);
        ClusterState current = state.get();
        Map<Integer, Map<String, ListOffsetsRequestData.ListOffsetsTopic>> byLeader = new HashMap<>();
        for (TopicPartition tp : wanted) {
            Partition local = hosted.apply(tp.topic(), tp.partition());
            TopicState topic = current.topic(tp.topic());
            if ((local != null && local.isLeader()) || topic == null || tp.partition() >= topic.partitionCount()) {
                fromLeaders.remove(tp);
                continue;
            }
            PartitionState ps = topic.partition(tp.partition());
            if (ps.isOffline()) {
                continue;
            }
            byLeader.computeIfAbsent(ps.leader(), id -> new HashMap<>())
                    .computeIfAbsent(tp.topic(), name -> new ListOffsetsRequestData.ListOffsetsTopic().setName(name))
                    .partitions()
                    .add(new ListOffsetsRequestData.ListOffsetsPartition()
                            .setPartitionIndex(tp.partition())
                            .setTimestamp(ListOffsetsRequest.LATEST_TIMESTAMP));
        }
        byLeader.forEach((leader, topics) -> ask(current, leader, topics));
    }

    private void ask(ClusterState current, int leader, Map<String, ListOffsetsRequestData.ListOffsetsTopic> topics) {
        InetSocketAddress address = ReplicaManager.addressOf(current, leader);
        if (address == null) {
            return;
        }
        ListOffsetsRequestData request = new ListOffsetsRequestData()
                .setReplicaId(ListOffsetsRequest.CONSUMER_REPLICA_ID)
                .setIsolationLevel((byte) 0);
        request.topics().addAll(topics.values());
        try {
            client.target(address);
            ByteBuffer body = client.call(ApiKeys.LIST_OFFSETS, LIST_OFFSETS_VERSION, request);
            ListOffsetsResponseData answer =
                    new ListOffsetsResponseData(new ByteBufferAccessor(body), LIST_OFFSETS_VERSION);
            for (ListOffsetsResponseData.ListOffsetsTopicResponse topic : answer.topics()) {
                for (ListOffsetsResponseData.ListOffsetsPartitionResponse p : topic.partitions()) {
                    TopicPartition tp = new TopicPartition(topic.name(), p.partitionIndex());
                    if (p.errorCode() == Errors.NONE.code() && p.offset() >= 0) {
                        fromLeaders.put(tp, p.offset());
                    } else {
                        fromLeaders.remove(tp);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("Asking broker {} for high watermarks failed: {}", leader, e.toString());
            client.disconnect();
        }
    }

    @Override
    public void close() {
        try {
            thread.execute(client::close);
        } catch (RejectedExecutionException e) {
            return;
        }
        thread.shutdown();
    }
}
