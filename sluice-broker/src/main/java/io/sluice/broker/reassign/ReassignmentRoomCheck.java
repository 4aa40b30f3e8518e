package io.sluice.broker.reassign;

import io.sluice.broker.interbroker.BrokerClient;
import io.sluice.broker.interbroker.SerialBrokerCalls;
import io.sluice.broker.replica.ReplicaManager;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.DescribeLogDirsRequestData;
import org.apache.kafka.common.message.DescribeLogDirsRequestData.DescribableLogDirTopic;
import org.apache.kafka.common.message.DescribeLogDirsResponseData;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsPartition;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsResult;
import org.apache.kafka.common.message.DescribeLogDirsResponseData.DescribeLogDirsTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The room check before a reassignment: every broker that gains a replica must keep at least
 * {@code sluice.move.free.space.margin.bytes} free in its roomiest log directory after taking every partition the
 * request adds to it. Sizes come from the partitions' leaders and free space from the new brokers, both through
 * Kafka's DescribeLogDirs; a broker that cannot be asked, or does not answer within a few seconds (down, paused), is
 * not held against the move (it is only logged), so the check never holds a request near the client's timeout. A
 * refused partition gets a reason naming the broker, the bytes it has and the bytes the move needs.
 *
 * <p>Thread-safe: checks run one at a time on the checker's own thread.
 */
public final class ReassignmentRoomCheck implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReassignmentRoomCheck.class);
    private static final short DESCRIBE_LOG_DIRS_VERSION = 4;
    private static final int MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
    private static final double MEGABYTE = 1024.0 * 1024.0;
    /** Bound on asking one broker: far below the 30 s a Kafka admin client waits for the whole request. */
    private static final int ASK_TIMEOUT_MS = 3_000;

    private final long marginBytes;
    private final SerialBrokerCalls calls;

    public ReassignmentRoomCheck(int selfId, long marginBytes) {
        this.marginBytes = marginBytes;
        this.calls = new SerialBrokerCalls(
                "reassignment room check",
                "sluice-reassignment-room-check-" + selfId,
                new BrokerClient("sluice-broker-" + selfId + "-room-check", MAX_RESPONSE_BYTES, ASK_TIMEOUT_MS));
    }

    /**
     * The partitions of {@code targets} (null targets are cancellations and pass) that must be refused for lack of
     * room, each with its reason; empty when every move fits.
     */
    public CompletableFuture<Map<PartitionRef, String>> refusals(ClusterState state, Map<PartitionRef, int[]> targets) {
        return calls.submit(client -> check(client, state, targets));
    }

    private Map<PartitionRef, String> check(BrokerClient client, ClusterState state, Map<PartitionRef, int[]> targets) {
        Map<Integer, List<PartitionRef>> addedTo = new LinkedHashMap<>();
        Map<Integer, List<PartitionRef>> byLeader = new HashMap<>();
        for (Map.Entry<PartitionRef, int[]> e : targets.entrySet()) {
            TopicState topic = state.topic(e.getKey().topic());
            if (e.getValue() == null
                    || topic == null
                    || e.getKey().partition() < 0
                    || e.getKey().partition() >= topic.partitionCount()) {
                continue;
            }
            PartitionState ps = topic.partition(e.getKey().partition());
            for (int id : e.getValue()) {
                if (!ps.hasReplica(id)) {
                    addedTo.computeIfAbsent(id, k -> new ArrayList<>()).add(e.getKey());
                }
            }
            if (!ps.isOffline()) {
                byLeader.computeIfAbsent(ps.leader(), k -> new ArrayList<>()).add(e.getKey());
            }
        }
        if (addedTo.isEmpty()) {
            return Map.of();
        }
        Map<PartitionRef, Long> sizes = new HashMap<>();
        for (Map.Entry<Integer, List<PartitionRef>> e : byLeader.entrySet()) {
            DescribeLogDirsResponseData answer = describe(client, state, e.getKey(), e.getValue());
            if (answer != null) {
                collectSizes(answer, sizes);
            }
        }
        Map<PartitionRef, String> refused = new LinkedHashMap<>();
        for (Map.Entry<Integer, List<PartitionRef>> e : addedTo.entrySet()) {
            int broker = e.getKey();
            DescribeLogDirsResponseData answer = describe(client, state, broker, List.of());
            if (answer == null) {
                continue;
            }
            long usable = roomiest(answer);
            long needed = 0;
            for (PartitionRef ref : e.getValue()) {
                needed += sizes.getOrDefault(ref, 0L);
            }
            if (usable >= 0 && usable - needed < marginBytes) {
                String reason = String.format(
                        Locale.ROOT,
                        "Not enough disk on broker %d: its roomiest log directory "
                                + "has %.1f MB free; the %d partition(s) this request adds to it need %.1f MB plus the margin "
                                + "sluice.move.free.space.margin.bytes=%d",
                        broker,
                        usable / MEGABYTE,
                        e.getValue().size(),
                        needed / MEGABYTE,
                        marginBytes);
                for (PartitionRef ref : e.getValue()) {
                    refused.putIfAbsent(ref, reason);
                }
            }
        }
        return refused;
    }

    /** DescribeLogDirs of {@code partitions} (none: directories only) at broker {@code id}; null when unreachable. */
    private static DescribeLogDirsResponseData describe(
            BrokerClient client, ClusterState state, int id, List<PartitionRef> partitions) {
        InetSocketAddress address = ReplicaManager.addressOf(state, id);
        if (address == null) {
            LOG.info("room check: broker {} is not live; not checked", id);
            return null;
        }
        DescribeLogDirsRequestData request = new DescribeLogDirsRequestData();
        Map<String, DescribableLogDirTopic> topics = new LinkedHashMap<>();
        for (PartitionRef ref : partitions) {
            topics.computeIfAbsent(ref.topic(), t -> new DescribableLogDirTopic().setTopic(t))
                    .partitions()
                    .add(ref.partition());
        }
        request.topics().addAll(topics.values());
        try {
            client.target(address);
            ByteBuffer body = client.call(ApiKeys.DESCRIBE_LOG_DIRS, DESCRIBE_LOG_DIRS_VERSION, request);
            return new DescribeLogDirsResponseData(new ByteBufferAccessor(body), DESCRIBE_LOG_DIRS_VERSION);
        } catch (IOException | RuntimeException e) {
            client.disconnect();
            LOG.info("room check: broker {} did not answer DescribeLogDirs ({}); not checked", id, e.toString());
            return null;
        }
    }

    private static void collectSizes(DescribeLogDirsResponseData answer, Map<PartitionRef, Long> sizes) {
        for (DescribeLogDirsResult dir : answer.results()) {
            for (DescribeLogDirsTopic t : dir.topics()) {
                for (DescribeLogDirsPartition p : t.partitions()) {
                    sizes.merge(new PartitionRef(t.name(), p.partitionIndex()), p.partitionSize(), Math::max);
                }
            }
        }
    }

    /** The most usable bytes of any readable directory; -1 when none tells. */
    private static long roomiest(DescribeLogDirsResponseData answer) {
        long best = -1;
        for (DescribeLogDirsResult dir : answer.results()) {
            if (dir.errorCode() == Errors.NONE.code()) {
                best = Math.max(best, dir.usableBytes());
            }
        }
        return best;
    }

    @Override
    public void close() {
        calls.close();
    }
}
