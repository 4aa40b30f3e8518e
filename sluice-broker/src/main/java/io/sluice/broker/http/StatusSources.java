package io.sluice.broker.http;

import io.sluice.broker.cluster.ClusterMembership;
import io.sluice.broker.group.GroupLag;
import io.sluice.broker.metrics.BrokerTopicMetrics;
import io.sluice.broker.move.TransferProgress;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * What the status endpoints read, handed over by the broker at start.
 *
 * <p>Immutable; every source is thread-safe.
 *
 * @param brokerId    this broker's id
 * @param membership  cluster state, controller, ZooKeeper connection
 * @param consumerLag lag of the groups this broker coordinates
 * @param transfers   progress of a partition's file transfer into this broker, or null when none runs
 * @param topicMetrics the BrokerTopicMetrics meters the throughput history samples
 */
public record StatusSources(
        int brokerId,
        ClusterMembership membership,
        Supplier<List<GroupLag>> consumerLag,
        BiFunction<String, Integer, TransferProgress> transfers,
        BrokerTopicMetrics topicMetrics) {}
