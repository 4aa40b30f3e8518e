package io.sluice.cluster.node;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.controller.AlterPartitionResult;
import io.sluice.cluster.controller.ClusterController;
import io.sluice.cluster.controller.ConfigChange;
import io.sluice.cluster.controller.ConfigChangeResult;
import io.sluice.cluster.controller.ConfigSchema;
import io.sluice.cluster.controller.ControlledShutdownResult;
import io.sluice.cluster.controller.ControllerElection;
import io.sluice.cluster.controller.CreatePartitionsResult;
import io.sluice.cluster.controller.ElectionResult;
import io.sluice.cluster.controller.ElectionType;
import io.sluice.cluster.controller.IsrChangeRequest;
import io.sluice.cluster.controller.NotControllerException;
import io.sluice.cluster.controller.PartitionIncrease;
import io.sluice.cluster.controller.ReassignmentResult;
import io.sluice.cluster.controller.ReplicationError;
import io.sluice.cluster.registry.BrokerRegistration;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.ClusterStateFollower;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.TopicState;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker's place in the cluster, the single object the broker wires: its registration, its copy of the cluster
 * state, and (if eligible) its candidacy for controller. Controller operations complete exceptionally with
 * {@link io.sluice.cluster.controller.NotControllerException} on a broker that is not the controller, and with
 * {@link io.sluice.cluster.controller.ControllerFencedException} when a newer controller took over mid-operation.
 *
 * <p>Thread-safe; one per broker process. {@link #close()} leaves the election, deletes the registration and stops
 * following; the Curator client stays open (its owner closes it).
 */
public final class ClusterNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);

    private final BrokerInfo self;
    private final BrokerRegistration registration;
    private final ClusterStateFollower follower;
    private final ClusterController controller;
    private final ControllerElection election;
    private final ControllerTracker controllerTracker;

    /**
     * @param client             a started Curator client (e.g. {@code ClusterConnection.client()})
     * @param self               this broker's id, rack and endpoints
     * @param controllerEligible whether this broker runs for controller
     */
    public ClusterNode(CuratorFramework client, BrokerInfo self, ClusterConfig config, boolean controllerEligible) {
        this.self = self;
        this.registration = new BrokerRegistration(client, self, config.sessionTimeout());
        this.follower = new ClusterStateFollower(client, config, "broker-" + self.id(), null);
        this.controllerTracker = new ControllerTracker(client);
        if (controllerEligible) {
            this.controller = new ClusterController(client, self.id(), config);
            this.election = new ControllerElection(client, self.id(), controller, controller.executor());
        } else {
            this.controller = null;
            this.election = null;
        }
    }

    /**
     * Registers, starts following the state and joins the election.
     *
     * @throws io.sluice.cluster.registry.DuplicateBrokerIdException when another live broker has this id
     */
    public void start() throws Exception {
        registration.register();
        controllerTracker.start();
        follower.start();
        if (election != null) {
            election.start();
        }
        LOG.info("broker {} joined the cluster", self.id());
    }

    /** The newest cluster state this broker has applied. */
    public ClusterState current() {
        return follower.current();
    }

    /** Called with every new state on the follower's thread; must not block. */
    public void addListener(Consumer<ClusterState> listener) {
        follower.addListener(listener);
    }

    /** True while this broker holds the controller epoch. */
    public boolean isController() {
        return controller != null && controller.isActive();
    }

    /** The controller epoch this broker holds, -1 when it is not the controller. */
    public int controllerEpoch() {
        return controller == null ? -1 : controller.epoch();
    }

    /**
     * The id of the live controller as last recorded in ZooKeeper, {@code -1} when none is recorded or the recorded
     * one is not among the live brokers of {@link #current()} (it died and no successor won yet).
     */
    public int controllerId() {
        int id = controllerTracker.controllerId();
        return id >= 0 && current().brokers().containsKey(id) ? id : -1;
    }

    /** The newest controller epoch recorded in ZooKeeper, -1 before any controller. */
    public int recordedControllerEpoch() {
        return controllerTracker.epoch();
    }

    /** Creates a topic with replicas placed rack-aware over the live brokers; completes with the published topic. */
    public CompletableFuture<TopicState> createTopic(
            String name, int partitions, int replicationFactor, Map<String, String> configs) {
        return controller == null
                ? notController("createTopic")
                : controller.createTopic(name, partitions, replicationFactor, configs);
    }

    /**
     * Creates a topic on the replicas given per partition (CreateTopics' manual assignment); refusals fail with
     * {@link io.sluice.cluster.controller.InvalidAssignmentRequestException}. With {@code validateOnly} nothing is
     * published.
     */
    public CompletableFuture<TopicState> createTopic(
            String name, int[][] replicas, Map<String, String> configs, boolean validateOnly) {
        return controller == null
                ? notController("createTopic")
                : controller.createTopic(name, replicas, configs, validateOnly);
    }

    /**
     * Kafka's CreatePartitions: each topic grows to the count asked for; completes with one result per topic in
     * request order, everything accepted published in one delta (nothing with {@code validateOnly}).
     */
    public CompletableFuture<List<CreatePartitionsResult>> createPartitions(
            List<PartitionIncrease> increases, boolean validateOnly) {
        return controller == null
                ? notController("createPartitions")
                : controller.createPartitions(increases, validateOnly);
    }

    public CompletableFuture<Void> deleteTopic(String name) {
        return controller == null ? notController("deleteTopic") : controller.deleteTopic(name);
    }

    /**
     * A preferred election for each partition (see {@link #electLeaders(Collection, ElectionType)}); completes with the
     * state as published, or fails with {@link io.sluice.cluster.controller.UnknownTopicException} when a partition
     * does not exist.
     */
    public CompletableFuture<ClusterState> electLeaders(Collection<PartitionRef> partitions) {
        return controller == null ? notController("electLeaders") : controller.electLeaders(partitions);
    }

    /**
     * Sets the in-sync replicas of partitions as an administrator would, without epoch fencing (a partition leader
     * uses {@link #alterPartition}); the leader and its epoch stay, the partition epoch is bumped.
     */
    public CompletableFuture<ClusterState> alterIsr(Map<PartitionRef, int[]> isrs) {
        return controller == null ? notController("alterIsr") : controller.alterIsr(isrs);
    }

    /**
     * Kafka's AlterPartition, sent by the leader of each partition named: proposes new ISRs, each fenced by the
     * leader epoch and partition epoch the leader based it on. Completes with one {@link AlterPartitionResult} per
     * change, in request order: NONE with the partition as published (new partition epoch), or the error
     * ({@link ReplicationError#kafkaCode()} is Kafka's code) with the partition's current state to resync from.
     * Accepted changes are published in one delta.
     */
    public CompletableFuture<List<AlterPartitionResult>> alterPartition(int leaderId, List<IsrChangeRequest> changes) {
        return controller == null ? notController("alterPartition") : controller.alterPartition(leaderId, changes);
    }

    /**
     * Kafka's ControlledShutdown for broker {@code brokerId}: no election picks it any more (until it registers
     * under a new session), the leadership of each partition it leads moves to another live in-sync replica, and it
     * leaves the ISRs that have other members. Completes with the partitions it still leads; the broker retries while
     * that list is non-empty (controlled.shutdown.max.retries).
     */
    public CompletableFuture<ControlledShutdownResult> controlledShutdown(int brokerId) {
        return controlledShutdown(brokerId, -1);
    }

    /**
     * {@link #controlledShutdown(int)} from the incarnation of the broker registered with {@code brokerEpoch} (its
     * {@link BrokerRegistration#epoch()}; -1: unknown): one from an earlier registration is refused with
     * STALE_BROKER_EPOCH.
     */
    public CompletableFuture<ControlledShutdownResult> controlledShutdown(int brokerId, long brokerEpoch) {
        return controller == null
                ? notController("controlledShutdown")
                : controller.controlledShutdown(brokerId, brokerEpoch);
    }

    /**
     * Kafka's ElectLeaders: a {@link ElectionType#PREFERRED} or {@link ElectionType#UNCLEAN} election for each
     * partition named. Completes with one {@link ElectionResult} per partition, in request order (NONE,
     * ELECTION_NOT_NEEDED, PREFERRED_LEADER_NOT_AVAILABLE, ELIGIBLE_LEADERS_NOT_AVAILABLE,
     * UNKNOWN_TOPIC_OR_PARTITION).
     */
    public CompletableFuture<List<ElectionResult>> electLeaders(
            Collection<PartitionRef> partitions, ElectionType type) {
        return controller == null ? notController("electLeaders") : controller.electLeaders(partitions, type);
    }

    /**
     * Kafka's AlterPartitionReassignments: a target replica set per partition, null to cancel; completes with one
     * result per partition in the map's order.
     */
    public CompletableFuture<List<ReassignmentResult>> alterPartitionReassignments(Map<PartitionRef, int[]> targets) {
        return controller == null
                ? notController("alterPartitionReassignments")
                : controller.alterPartitionReassignments(targets);
    }

    /**
     * Kafka's IncrementalAlterConfigs (and, with {@link ConfigChange#replaceAll()}, AlterConfigs) for topics, brokers
     * and the cluster default: each resource checked by {@code schema} on the controller; completes with one result
     * per change in request order, everything accepted published in one delta (nothing with {@code validateOnly}).
     */
    public CompletableFuture<List<ConfigChangeResult>> alterConfigs(
            List<ConfigChange> changes, ConfigSchema schema, boolean validateOnly) {
        return controller == null
                ? notController("alterConfigs")
                : controller.alterConfigs(changes, schema, validateOnly);
    }

    /** Kafka's CreateAcls and DeleteAcls on the active controller (see {@link ClusterController#alterAcls}). */
    public <T> CompletableFuture<T> alterAcls(io.sluice.cluster.controller.AclChange<T> change) {
        return controller == null ? notController("alterAcls") : controller.alterAcls(change);
    }

    /** Kafka's AlterUserScramCredentials on the active controller (see {@link ClusterController#alterScramCredentials}). */
    public <T> CompletableFuture<T> alterScramCredentials(io.sluice.cluster.controller.ScramChange<T> change) {
        return controller == null ? notController("alterScramCredentials") : controller.alterScramCredentials(change);
    }

    /** The state the active controller last published, null when this node is not the active controller. */
    public ClusterState controllerState() {
        return controller == null ? null : controller.state();
    }

    private <T> CompletableFuture<T> notController(String op) {
        return CompletableFuture.failedFuture(new NotControllerException(self.id(), op));
    }

    public BrokerInfo self() {
        return self;
    }

    public ClusterStateFollower follower() {
        return follower;
    }

    /** The controller machinery, null when not eligible. */
    public ClusterController controller() {
        return controller;
    }

    public BrokerRegistration registration() {
        return registration;
    }

    @Override
    public void close() {
        if (election != null) {
            try {
                election.close();
            } catch (Exception e) {
                LOG.warn("broker {}: leaving the election failed: {}", self.id(), e.toString());
            }
        }
        if (controller != null) {
            controller.close();
        }
        registration.close();
        controllerTracker.close();
        follower.close();
    }
}
