package io.sluice.broker;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.ForwardingConfig;
import io.sluice.broker.config.MoveConfig;
import io.sluice.broker.config.ReplicaConfig;
import io.sluice.broker.interbroker.ControllerChannel;
import io.sluice.broker.metrics.BrokerGauges;
import io.sluice.broker.metrics.BrokerMetrics;
import io.sluice.broker.move.MoveSource;
import io.sluice.broker.move.MoveSourceLogs;
import io.sluice.broker.move.MoveTargets;
import io.sluice.broker.reassign.ReassignmentRoomCheck;
import io.sluice.broker.replica.ReplicaManager;
import io.sluice.broker.replica.ReplicationThrottling;
import io.sluice.broker.security.ClientSecurity;
import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicManager;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.state.ClusterState;
import io.sluice.log.LogManager;
import java.net.InetSocketAddress;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The parts that keep this broker's partitions replicated and move them between brokers: the channel to the
 * controller, the replication scheduler, the replication throttles, the replica manager (with its fetchers and the move
 * targets it runs), the room check of reassignments and the move source that serves other brokers' moves.
 *
 * <p>Immutable, of thread-safe parts; {@link #start} on the starting thread, {@link #close} once, by the stopping one.
 *
 * @param controllerChannel requests to the controller: ISR changes (AlterPartition), controlled shutdown, and the
 *     config, quota, SCRAM and ACL changes the broker's handlers forward
 * @param timer the replication scheduler; the broker's other periodic tasks run on it too, so the broker shuts it down
 *     with its other schedulers, not {@link #close}
 * @param throttling the replication throttles of the partitions this broker leads and follows
 * @param moveTargets the moves that copy partitions to this broker; the replica manager closes them
 * @param replicas replication of the hosted partitions
 * @param roomCheck whether the target brokers of a reassignment have room for it
 * @param moveSource serves other brokers' moves of partitions hosted here
 */
record ReplicationParts(
        ControllerChannel controllerChannel,
        ScheduledThreadPoolExecutor timer,
        ReplicationThrottling throttling,
        MoveTargets moveTargets,
        ReplicaManager replicas,
        ReassignmentRoomCheck roomCheck,
        MoveSource moveSource) {

    /**
     * Starts the replication parts, each added to {@code started} as it starts, so that a failed broker start stops
     * them with its other parts, in reverse order.
     *
     * @param node this broker's cluster node, read on each use: null until the broker joins the cluster
     */
    static ReplicationParts start(
            BrokerConfig config,
            LogManager logs,
            TopicManager topics,
            Supplier<ClusterNode> node,
            StartedParts started) {
        ReplicaConfig replicaConfig = ReplicaConfig.of(config);
        MoveConfig moveConfig = MoveConfig.of(config);
        ClientSecurity interBroker = ClientSecurity.interBroker(config);
        ControllerChannel controllerChannel = new ControllerChannel(
                config.brokerId(),
                () -> controllerAddress(node.get()),
                replicaConfig.socketTimeoutMs(),
                interBroker,
                ForwardingConfig.of(config));
        started.add(controllerChannel::close);
        ScheduledThreadPoolExecutor timer = BrokerSchedulers.daemon("sluice-replication");
        started.add(timer::shutdownNow);
        ReplicationThrottling throttling = new ReplicationThrottling(config.brokerId(), topics.replicationThrottles());
        MoveTargets moveTargets =
                new MoveTargets(config.brokerId(), moveConfig, throttling::moveReceiveLimiter, interBroker);
        ReplicaManager replicas = new ReplicaManager(
                config.brokerId(),
                replicaConfig,
                logs,
                () -> {
                    ClusterNode joined = node.get();
                    return joined == null ? ClusterState.EMPTY : joined.current();
                },
                topics::hostedPartitions,
                controllerChannel,
                timer,
                System::currentTimeMillis,
                moveTargets,
                throttling);
        started.add(replicas::close);
        ReassignmentRoomCheck roomCheck =
                new ReassignmentRoomCheck(config.brokerId(), moveConfig.freeSpaceMarginBytes());
        started.add(roomCheck::close);
        MoveSource moveSource = new MoveSource(
                (topic, index) -> {
                    Partition hosted = topics.hostedPartition(topic, index);
                    return hosted == null
                            ? null
                            : new MoveSourceLogs.Hosted(hosted.log(), hosted.leaderEpoch(), hosted.highWatermark());
                },
                moveConfig,
                throttling::moveSendLimiter,
                System::currentTimeMillis);
        started.add(moveSource::close);
        BrokerSchedulers.repeat(timer, "expiring abandoned moves", moveSource::expireAbandoned, 1, TimeUnit.SECONDS);
        return new ReplicationParts(controllerChannel, timer, throttling, moveTargets, replicas, roomCheck, moveSource);
    }

    /**
     * Registers the replication metrics once the broker's gauges run: ISR shrinks and expansions, reassignment traffic
     * and the reassigning partitions led here.
     */
    void registerMetrics(BrokerMetrics metrics, BrokerGauges gauges) {
        replicas.listenForIsrChanges(gauges);
        // KIP-352: reassignment traffic (all topics only, as Kafka keeps it) and the reassigning partitions led here
        throttling
                .reassignmentTraffic()
                .listen(
                        metrics.topics().allTopicsMeter("ReassignmentBytesInPerSec", "bytes")::mark,
                        metrics.topics().allTopicsMeter("ReassignmentBytesOutPerSec", "bytes")::mark);
        metrics.registry()
                .gauge(BrokerGauges.replicaManager("ReassigningPartitions"), replicas::reassigningPartitionsLed);
    }

    /**
     * Stops serving moves, stops replicating (the move targets too) with a last high-watermark checkpoint, then closes
     * the controller channel and the room check; the timer is left to the broker.
     */
    void close() {
        moveSource.close();
        replicas.close();
        controllerChannel.close();
        roomCheck.close();
    }

    /** Where the controller is, from the node's newest state; null while none is known. */
    private static InetSocketAddress controllerAddress(ClusterNode node) {
        if (node == null) {
            return null;
        }
        int id = node.controllerId();
        return id < 0 ? null : ReplicaManager.addressOf(node.current(), id);
    }
}
