package io.sluice.broker.config;

import io.sluice.cluster.state.TopicState;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kafka's replication throttles (KIP-73) as this broker sees them now, for the replica fetcher, the leader's answer
 * to follower fetches and the partition mover: the rates come from the broker keys
 * {@code leader.replication.throttled.rate}, {@code follower.replication.throttled.rate} and
 * {@code replica.alter.log.dirs.io.max.bytes.per.second} (this broker's dynamic value, else the cluster default,
 * else server.properties, else Long.MAX_VALUE: unthrottled); the throttled replicas come from the topic keys
 * {@code leader.replication.throttled.replicas} and {@code follower.replication.throttled.replicas}, each a list of
 * {@code partition:brokerId} or {@code *} for every replica of the topic.
 *
 * <p>Kafka's meaning, which the enforcer keeps: {@code kafka-reassign-partitions.sh --throttle} lists a moving
 * partition's current replicas as leader-throttled and its new replicas as follower-throttled. A broker leading
 * partition p throttles what it sends for p when {@code isLeaderThrottled(topic, p, itsOwnId)} (Kafka exempts
 * followers already in the ISR); a broker fetching p as follower (or receiving it in a move) throttles when
 * {@code isFollowerThrottled(topic, p, itsOwnId)}.
 *
 * <p>Thread-safe: every read sees one consistent snapshot, replaced as a whole when a new cluster state is applied;
 * lookups allocate nothing.
 */
public final class ReplicationThrottles {
    private static final long[] NONE = new long[0];
    /** Stands for {@code *}. */
    private static final long[] ALL = new long[0];

    private volatile Snapshot snapshot =
            new Snapshot(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Map.of(), Map.of());

    /** Bytes/s this broker may send as leader to throttled followers; Long.MAX_VALUE means unthrottled. */
    public long leaderRate() {
        return snapshot.leaderRate;
    }

    /** Bytes/s this broker may fetch as follower for throttled partitions; Long.MAX_VALUE means unthrottled. */
    public long followerRate() {
        return snapshot.followerRate;
    }

    /** Bytes/s of moves between this broker's log directories; Long.MAX_VALUE means unthrottled. */
    public long alterLogDirsRate() {
        return snapshot.alterLogDirsRate;
    }

    /** Whether {@code topic}'s leader.replication.throttled.replicas names {@code partition:brokerId} (or is *). */
    public boolean isLeaderThrottled(String topic, int partition, int brokerId) {
        return contains(snapshot.leader.get(topic), partition, brokerId);
    }

    /** Whether {@code topic}'s follower.replication.throttled.replicas names {@code partition:brokerId} (or is *). */
    public boolean isFollowerThrottled(String topic, int partition, int brokerId) {
        return contains(snapshot.follower.get(topic), partition, brokerId);
    }

    /**
     * Takes the rates of {@code broker} and the throttled replica lists of {@code topicConfigs} (topic name to its
     * dynamic configuration). Called by whoever applies cluster states, one at a time.
     */
    public void update(BrokerConfig broker, Map<String, Map<String, String>> topicConfigs) {
        Map<String, long[]> leader = new HashMap<>();
        Map<String, long[]> follower = new HashMap<>();
        for (Map.Entry<String, Map<String, String>> e : topicConfigs.entrySet()) {
            put(leader, e.getKey(), e.getValue().get(TopicConfigKeys.LEADER_REPLICATION_THROTTLED_REPLICAS));
            put(follower, e.getKey(), e.getValue().get(TopicConfigKeys.FOLLOWER_REPLICATION_THROTTLED_REPLICAS));
        }
        snapshot = new Snapshot(
                broker.leaderReplicationThrottledRate(),
                broker.followerReplicationThrottledRate(),
                broker.replicaAlterLogDirsIoMaxBytesPerSecond(),
                leader,
                follower);
    }

    /** Takes the rates of {@code broker} and the throttled replica lists of {@code topics}. */
    public void update(BrokerConfig broker, Collection<TopicState> topics) {
        Map<String, Map<String, String>> throttled = new HashMap<>();
        for (TopicState topic : topics) {
            Map<String, String> configs = topic.configs();
            if (configs.containsKey(TopicConfigKeys.LEADER_REPLICATION_THROTTLED_REPLICAS)
                    || configs.containsKey(TopicConfigKeys.FOLLOWER_REPLICATION_THROTTLED_REPLICAS)) {
                throttled.put(topic.name(), configs);
            }
        }
        update(broker, throttled);
    }

    private static void put(Map<String, long[]> into, String topic, String list) {
        long[] replicas = parse(list);
        if (replicas != NONE) {
            into.put(topic, replicas);
        }
    }

    /** Sorted packed (partition, broker) pairs, {@link #ALL} for *, {@link #NONE} for unset, empty or malformed. */
    static long[] parse(String list) {
        if (list == null || list.isBlank()) {
            return NONE;
        }
        List<?> items = (List<?>) ConfigType.LIST.parse("throttled.replicas", list);
        if (items.size() == 1 && "*".equals(items.get(0))) {
            return ALL;
        }
        long[] packed = new long[items.size()];
        int n = 0;
        for (Object entry : items) {
            String item = entry.toString();
            int colon = item.indexOf(':');
            try {
                packed[n++] = pack(
                        Integer.parseInt(item.substring(0, colon).trim()),
                        Integer.parseInt(item.substring(colon + 1).trim()));
            } catch (RuntimeException malformed) {
                // the controller validates the list; an unreadable item throttles nothing
                n--;
            }
        }
        if (n == 0) {
            return NONE;
        }
        long[] sorted = Arrays.copyOf(packed, n);
        Arrays.sort(sorted);
        return sorted;
    }

    private static long pack(int partition, int brokerId) {
        return ((long) partition << 32) | (brokerId & 0xffff_ffffL);
    }

    private static boolean contains(long[] replicas, int partition, int brokerId) {
        if (replicas == null) {
            return false;
        }
        return replicas == ALL || Arrays.binarySearch(replicas, pack(partition, brokerId)) >= 0;
    }

    private record Snapshot(
            long leaderRate,
            long followerRate,
            long alterLogDirsRate,
            Map<String, long[]> leader,
            Map<String, long[]> follower) {}
}
