package io.sluice.cluster.controller;

import io.sluice.cluster.assign.PartitionAssigner;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.StateReader;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.SnapshotManifest;
import io.sluice.cluster.zk.ZkPaths;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's work once elected, the way Kafka's KRaft controller divides it: this class takes over (loads the
 * published state through {@link StateLoader}), runs every operation on its single thread and hands each concern to
 * its part: {@link MembershipTracker} follows the registrations (a join or a leave reads only the broker it names;
 * events within {@link ClusterConfig#coalesceDelay()} become one delta), {@link ReplicationControl} decides every
 * partition change (leaders, ISRs, AlterPartition, controlled shutdown, elections, leader imbalance) and
 * {@link StatePublisher} writes each change as one fenced delta, folds deltas into snapshots and repairs a damaged
 * snapshot. The public operations queue their bodies, held by {@link ControllerOperations}, on that thread; until a
 * take-over completed (a failed one retries) they fail with {@link NotControllerException}, as a Kafka controller
 * still loading answers NOT_CONTROLLER. Per membership change the work is O(size of the change).
 *
 * <p>Every method that touches state runs on the controller's single thread; the public operations return futures.
 * Thread-safe; one per broker.
 */
public final class ClusterController implements ControllerElection.Listener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterController.class);

    private final CuratorFramework client;
    private final int brokerId;
    private final ClusterConfig config;
    private final ControllerThread thread;
    private final StateReader reader;
    private final StateLoader loader;
    private final StatePublisher publisher;
    private final MembershipTracker membership;
    private final ReplicationControl replication;
    private final ControllerOperations operations;
    private final AtomicBoolean membershipScheduled = new AtomicBoolean();
    private final ControllerStats stats = new ControllerStats();

    /** The writer of the current term; null when not elected (resigned, fenced). */
    private volatile FencedWriter writer;
    /** Set once the state is loaded after election; cleared on resignation or fencing. */
    private volatile boolean ready;

    public ClusterController(CuratorFramework client, int brokerId, ClusterConfig config) {
        this.client = client;
        this.brokerId = brokerId;
        this.config = config;
        this.thread = new ControllerThread(brokerId);
        this.reader = new StateReader(client, config);
        this.loader = new StateLoader(client, brokerId, reader);
        this.replication = new ReplicationControl(config);
        this.publisher = new StatePublisher(
                client, brokerId, config, reader, stats, thread::submit, this::fenced, replication::applied);
        this.operations = new ControllerOperations(publisher, replication);
        this.membership = new MembershipTracker(client, brokerId, stats, this::scheduleMembership);
        if (config.autoLeaderRebalanceEnable()) {
            long every = config.leaderImbalanceCheckInterval().toMillis();
            // checkLeaderImbalance logs its own failures, so the future never fails and the check keeps running.
            thread.scheduleWithFixedDelay(this::checkLeaderImbalance, every);
        }
    }

    /** The executor election callbacks must run on. */
    public Executor executor() {
        return thread.executor();
    }

    /** True once elected and the published state is loaded, until resignation or fencing. */
    public boolean isActive() {
        return ready && writer != null;
    }

    /** The epoch held while active, else -1. */
    public int epoch() {
        FencedWriter w = writer;
        return w == null ? -1 : w.epoch();
    }

    /** The state as this controller last published it, null when not active. */
    public ClusterState state() {
        return isActive() ? publisher.state() : null;
    }

    public ControllerStats stats() {
        return stats;
    }

    /** Sets the one observer told of each published delta and snapshot (the broker's metrics); null for none. */
    public void observePublications(PublicationObserver observer) {
        publisher.observeWith(observer);
    }

    /** The controller thread, for CPU and allocation measurements; null before it first ran. */
    public Thread controllerThread() {
        return thread.thread();
    }

    /** The folding rule in force; for reports. */
    public SnapshotPolicy snapshotPolicy() {
        return publisher.snapshotPolicy();
    }

    // ---- election --------------------------------------------------------------------------------------------

    @Override
    public void elected(FencedWriter w) {
        thread.submit(() -> takeOver(w));
    }

    @Override
    public void resigned() {
        thread.submit(() -> {
            if (writer != null) {
                LOG.info("broker {} stops acting as controller (epoch {})", brokerId, writer.epoch());
            }
            stopActing();
        });
    }

    private void takeOver(FencedWriter w) {
        ready = false;
        writer = w;
        try {
            client.createContainers(ZkPaths.BROKER_IDS);
            ensurePersistent(ZkPaths.STATE);
            StateLoader.Loaded loaded = loader.load();
            publisher.start(w, loaded);
            replication.rebuild(loaded.state());
            long snapshotsBefore = stats.snapshots.get();
            membership.start();
            reconcileMembership();
            completeMetReassignments();
            if (loaded.needSnapshot() && stats.snapshots.get() == snapshotsBefore) {
                publisher.writeSnapshot();
            } else {
                publisher.watchSnapshot();
            }
            ready = true;
            LOG.info("controller {} epoch {} took over at {}", brokerId, w.epoch(), publisher.state());
        } catch (ControllerFencedException e) {
            fenced(e);
        } catch (Exception | Error e) {
            // An Error too: left to the thread's logging, it would leave this broker taking over for good.
            if (e instanceof Error) {
                LOG.error("controller {} epoch {}: take-over failed, retrying", brokerId, w.epoch(), e);
            } else {
                LOG.warn("controller {} epoch {}: take-over failed, retrying: {}", brokerId, w.epoch(), e.toString());
            }
            thread.schedule(
                    () -> {
                        if (writer == w) {
                            takeOver(w);
                        }
                    },
                    config.controllerRetryDelay().toMillis());
        }
    }

    private void ensurePersistent(String path) throws Exception {
        try {
            client.create().creatingParentsIfNeeded().forPath(path);
        } catch (KeeperException.NodeExistsException e) {
            // Present from an earlier controller.
        }
    }

    private void fenced(ControllerFencedException e) {
        LOG.warn("controller {}: {}", brokerId, e.getMessage());
        stats.fencedWrites.incrementAndGet();
        stopActing();
    }

    private void stopActing() {
        ready = false;
        writer = null;
        publisher.stop();
        membership.stop();
    }

    // ---- membership ------------------------------------------------------------------------------------------

    private void scheduleMembership() {
        if (membershipScheduled.compareAndSet(false, true)) {
            thread.schedule(
                    () -> {
                        membershipScheduled.set(false);
                        if (!ready) {
                            // Not the controller, or taking over: each take-over attempt compares every
                            // registration itself (MembershipTracker#start), so nothing is lost by waiting.
                            return;
                        }
                        try {
                            reconcileMembership();
                        } catch (ControllerFencedException e) {
                            fenced(e);
                        } catch (Exception e) {
                            LOG.warn("controller {}: membership update failed, retrying: {}", brokerId, e.toString());
                            membership.requestFullScan();
                            thread.schedule(
                                    this::scheduleMembership,
                                    config.controllerRetryDelay().toMillis());
                        }
                    },
                    config.coalesceDelay().toMillis());
        }
    }

    /**
     * Publishes one delta for the membership changes seen since the last call, with the partition changes they
     * cause ({@link ReplicationControl#onMembershipChange}).
     */
    private void reconcileMembership() throws Exception {
        if (writer == null) {
            return;
        }
        ClusterState state = publisher.state();
        DeltaRecord delta = new DeltaRecord();
        MembershipChange change = membership.read(state, delta);
        if (change.isEmpty()) {
            return;
        }
        delta.left = change.leftIds();
        replication.onMembershipChange(state, change, delta);
        publisher.publish(delta, () -> {
            stats.joins.addAndGet(change.joined.size());
            stats.leaves.addAndGet(change.left.size());
            stats.bounces.addAndGet(change.bounced.size());
            stats.membershipDeltas.incrementAndGet();
        });
    }

    /**
     * Completes, in one delta, the reassignments of the loaded state whose target is already met (a state written by
     * a build that completed them only on ISR changes), as Kafka's controller does for those it finds at fail-over.
     */
    private void completeMetReassignments() throws Exception {
        DeltaRecord delta = new DeltaRecord();
        replication.completeMetReassignments(publisher.state(), delta);
        if (!delta.isEmpty()) {
            publisher.publish(delta);
        }
    }

    /** Kafka's periodic leader-imbalance check; publishes only when some leadership moves. */
    private void checkLeaderImbalance() {
        if (!isActive()) {
            return;
        }
        try {
            DeltaRecord delta = new DeltaRecord();
            replication.rebalanceLeaders(publisher.state(), delta);
            if (!delta.isEmpty()) {
                publisher.publish(delta, stats.rebalances::incrementAndGet);
            }
        } catch (ControllerFencedException e) {
            fenced(e);
        } catch (Exception e) {
            LOG.warn("controller {}: leader imbalance check failed: {}", brokerId, e.toString());
        }
    }

    // ---- operations ------------------------------------------------------------------------------------------

    /**
     * Creates a topic with replicas placed by {@link PartitionAssigner} over the live brokers not in controlled
     * shutdown: the preferred replicas lead and every replica is in sync (a new partition is empty everywhere).
     * Completes with the topic as published; a taken name fails with {@link TopicExistsException}, a colliding name,
     * a partition count out of range or more replicas than such brokers with
     * {@link InvalidAssignmentRequestException}.
     */
    public CompletableFuture<TopicState> createTopic(
            String name, int partitions, int replicationFactor, Map<String, String> configs) {
        return call(
                "createTopic " + name,
                state -> operations.createTopic(state, name, partitions, replicationFactor, configs));
    }

    /**
     * Creates a topic on the replicas given per partition (CreateTopics' manual assignment, checked as Kafka's
     * controller does; refusals fail with {@link InvalidAssignmentRequestException}). With {@code validateOnly}
     * nothing is published and the future completes with the topic as it would be.
     */
    public CompletableFuture<TopicState> createTopic(
            String name, int[][] replicas, Map<String, String> configs, boolean validateOnly) {
        return call(
                "createTopic " + name, state -> operations.createTopic(state, name, replicas, configs, validateOnly));
    }

    /**
     * Kafka's CreatePartitions ({@link PartitionGrowth}): each topic grows to the count asked for, on the replicas
     * given or placed rack-aware; everything accepted is published in one delta, nothing with {@code validateOnly}.
     * Completes with one result per topic, in request order.
     */
    public CompletableFuture<List<CreatePartitionsResult>> createPartitions(
            List<PartitionIncrease> increases, boolean validateOnly) {
        return call("createPartitions", state -> operations.createPartitions(state, increases, validateOnly));
    }

    /**
     * Deletes topic {@code name} with all its partitions: its id is published in one delta. Completes with null once
     * published; a topic that does not exist fails with {@link UnknownTopicException} (and changes nothing).
     */
    public CompletableFuture<Void> deleteTopic(String name) {
        return call("deleteTopic " + name, state -> {
            operations.deleteTopic(state, name);
            return null;
        });
    }

    /**
     * A preferred election for each partition ({@link #electLeaders(Collection, ElectionType)}), failing with
     * {@link UnknownTopicException} (and changing nothing) when one does not exist. Completes with the state as
     * published.
     */
    public CompletableFuture<ClusterState> electLeaders(Collection<PartitionRef> refs) {
        return call("electLeaders", state -> operations.electPreferredLeaders(state, refs));
    }

    /**
     * Kafka's ElectLeaders: a preferred or unclean election for each partition named, published in one delta.
     * Completes with one result per partition, in request order.
     */
    public CompletableFuture<List<ElectionResult>> electLeaders(Collection<PartitionRef> refs, ElectionType type) {
        return call("electLeaders " + type, state -> operations.electLeaders(state, refs, type));
    }

    /**
     * Kafka's AlterPartitionReassignments (KIP-455): for each partition a target replica set, or null to cancel its
     * reassignment ({@link ReassignmentControl}); everything accepted is published in one delta. Completes with one
     * result per partition, in the map's order.
     */
    public CompletableFuture<List<ReassignmentResult>> alterPartitionReassignments(Map<PartitionRef, int[]> targets) {
        return call("alterPartitionReassignments", state -> operations.alterPartitionReassignments(state, targets));
    }

    /**
     * Sets the in-sync replicas of partitions as an administrator would (no epoch fencing; the broker's path is
     * {@link #alterPartition}). The leader and its epoch stay; the partition epoch is bumped. Completes with the state
     * as published.
     */
    public CompletableFuture<ClusterState> alterIsr(Map<PartitionRef, int[]> isrs) {
        return call("alterIsr", state -> operations.alterIsr(state, isrs));
    }

    /**
     * Kafka's AlterPartition: the ISR changes partition leader {@code leaderId} proposes, each validated on its own
     * (fenced by leader epoch and partition epoch). Accepted changes bump the partition epoch and are published
     * together in one delta; refused ones change nothing. Completes with one result per change, in request order.
     */
    public CompletableFuture<List<AlterPartitionResult>> alterPartition(int leaderId, List<IsrChangeRequest> changes) {
        return call("alterPartition from " + leaderId, state -> operations.alterPartition(state, leaderId, changes));
    }

    /**
     * Kafka's ControlledShutdown: marks broker {@code brokerId} as shutting down (no election picks it until it
     * registers under a new session), moves the leadership of every partition it leads to another live in-sync
     * replica and takes it out of the ISRs that have other members, in one delta. Completes with the partitions it
     * still leads.
     */
    public CompletableFuture<ControlledShutdownResult> controlledShutdown(int brokerId) {
        return controlledShutdown(brokerId, -1);
    }

    /**
     * {@link #controlledShutdown(int)} from the incarnation of broker {@code brokerId} registered with
     * {@code brokerEpoch} (-1: unknown, taken as current): a request from an earlier registration than the one this
     * controller read is refused with STALE_BROKER_EPOCH and changes nothing, as Kafka's controller does.
     */
    public CompletableFuture<ControlledShutdownResult> controlledShutdown(int brokerId, long brokerEpoch) {
        return call("controlledShutdown " + brokerId, state -> {
            long known = membership.registrationEpoch(brokerId);
            if (brokerEpoch >= 0 && known >= 0 && brokerEpoch < known) {
                LOG.info(
                        "controller {}: controlled shutdown of broker {} refused: epoch {} is older than its registration's {}",
                        this.brokerId,
                        brokerId,
                        brokerEpoch,
                        known);
                return new ControlledShutdownResult(ReplicationError.STALE_BROKER_EPOCH, List.of());
            }
            return operations.controlledShutdown(state, brokerId);
        });
    }

    /**
     * Kafka's IncrementalAlterConfigs and AlterConfigs ({@link ConfigControl}): each resource's new dynamic
     * configuration, checked by {@code schema}, published together in one delta unless {@code validateOnly}.
     * Completes with one result per change, in request order.
     */
    public CompletableFuture<List<ConfigChangeResult>> alterConfigs(
            List<ConfigChange> changes, ConfigSchema schema, boolean validateOnly) {
        return call("alterConfigs", state -> operations.alterConfigs(state, changes, schema, validateOnly));
    }

    /**
     * Kafka's CreateAcls and DeleteAcls ({@link AclChange}): what {@code change} adds and removes is published in one
     * delta (nothing when the entries stay as they are). Completes with the change's answer after the write.
     */
    public <T> CompletableFuture<T> alterAcls(AclChange<T> change) {
        return call("alterAcls", state -> operations.alterAcls(state, change));
    }

    /**
     * Kafka's AlterUserScramCredentials ({@link ScramChange}): the credentials {@code change} deletes and sets are
     * published in one delta (nothing when they stay as they are). Completes with the change's answer after the write.
     */
    public <T> CompletableFuture<T> alterScramCredentials(ScramChange<T> change) {
        return call("alterScramCredentials", state -> operations.alterScramCredentials(state, change));
    }

    /** Writes a fresh snapshot of the current state now (operators, tests, repair). */
    public CompletableFuture<SnapshotManifest> writeSnapshotNow() {
        return call("writeSnapshot", state -> operations.writeSnapshotNow());
    }

    /** An operation on the published state, run on the controller thread. */
    private interface Operation<T> {
        T run(ClusterState state) throws Exception;
    }

    private <T> CompletableFuture<T> call(String what, Operation<T> body) {
        CompletableFuture<T> f = new CompletableFuture<>();
        if (thread.isShutdown()) {
            f.completeExceptionally(new NotControllerException(brokerId, what + " (controller closed)"));
            return f;
        }
        thread.submit(() -> {
            if (!isActive()) {
                // Not elected, or elected but still taking over (a failed take-over retries): the state, the brokers'
                // registration epochs and the membership are not loaded yet. As a Kafka controller that has not
                // finished loading, refuse, so that the caller retries (NOT_CONTROLLER).
                f.completeExceptionally(new NotControllerException(
                        brokerId, what + (writer == null ? "" : " (still taking over as controller)")));
                return;
            }
            try {
                f.complete(body.run(publisher.state()));
            } catch (ControllerFencedException e) {
                fenced(e);
                f.completeExceptionally(e);
            } catch (Exception e) {
                f.completeExceptionally(e);
            } catch (Error e) {
                // Still answered, so the caller does not wait forever, and logged: the error goes no further.
                LOG.error("controller {}: {} failed", brokerId, what, e);
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    @Override
    public void close() {
        membership.stop();
        thread.shutdownAndWait();
        writer = null;
        publisher.close();
        reader.close();
    }
}
