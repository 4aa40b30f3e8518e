package io.sluice.cluster.controller;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A {@link ReplicationControl} driven without ZooKeeper: each operation builds a delta, applies it to the state the
 * way the publisher would, and remembers the last delta so tests can check what would have been published.
 * Not thread-safe; one per test.
 */
final class ReplicationModel {
    final ReplicationControl control;
    ClusterState state;
    DeltaRecord lastDelta;

    ReplicationModel(ClusterConfig config, List<Integer> brokers, TopicState... topics) {
        List<BrokerInfo> infos = new ArrayList<>();
        for (int id : brokers) {
            infos.add(ZkTesting.broker(id, ""));
        }
        this.state = ClusterState.of(1, 0, infos, List.of(topics));
        this.control = new ReplicationControl(config);
        control.rebuild(state);
    }

    /** A topic whose partitions are new on {@code replicas} (ISR = replicas, preferred leads). */
    static TopicState topic(String name, Map<String, String> configs, int[]... replicas) {
        return new TopicState(UUID.randomUUID(), name, configs, ReplicationControl.newPartitions(replicas));
    }

    static int[] ids(int... ids) {
        return ids;
    }

    PartitionState partition(String topic, int p) {
        return state.topic(topic).partition(p);
    }

    UUID id(String topic) {
        return state.topic(topic).id();
    }

    /** Brokers {@code ids} leave (sessions gone). */
    void leave(int... ids) {
        MembershipChange change = new MembershipChange(state);
        DeltaRecord delta = new DeltaRecord();
        for (int id : ids) {
            change.left.add(id);
        }
        delta.left = change.leftIds();
        control.onMembershipChange(state, change, delta);
        apply(delta);
    }

    /** Brokers {@code ids} register (join). */
    void join(int... ids) {
        MembershipChange change = new MembershipChange(state);
        DeltaRecord delta = new DeltaRecord();
        for (int id : ids) {
            change.joined.add(id);
            delta.joined.add(BrokerRecord.of(ZkTesting.broker(id, "")));
        }
        control.onMembershipChange(state, change, delta);
        apply(delta);
    }

    /** Broker {@code id} re-registers under a new session. */
    void bounce(int id) {
        MembershipChange change = new MembershipChange(state);
        DeltaRecord delta = new DeltaRecord();
        change.bounced.add(id);
        delta.joined.add(BrokerRecord.of(ZkTesting.broker(id, "")));
        control.onMembershipChange(state, change, delta);
        apply(delta);
    }

    List<AlterPartitionResult> alterPartition(int leaderId, IsrChangeRequest... changes) {
        DeltaRecord delta = new DeltaRecord();
        List<AlterPartitionResult> r = control.alterPartition(state, leaderId, Arrays.asList(changes), delta);
        apply(delta);
        return r;
    }

    /** An AlterPartition of {@code topic}-{@code p} built on its current epochs. */
    IsrChangeRequest isrChange(String topic, int p, int... newIsr) {
        PartitionState ps = partition(topic, p);
        return new IsrChangeRequest(id(topic), p, ps.leaderEpoch(), ps.partitionEpoch(), newIsr);
    }

    ControlledShutdownResult controlledShutdown(int brokerId) {
        DeltaRecord delta = new DeltaRecord();
        ControlledShutdownResult r = control.controlledShutdown(state, brokerId, delta);
        apply(delta);
        return r;
    }

    List<ElectionResult> elect(ElectionType type, PartitionRef... refs) {
        DeltaRecord delta = new DeltaRecord();
        List<ElectionResult> r = control.electLeaders(state, List.of(refs), type, delta);
        apply(delta);
        return r;
    }

    /** AlterPartitionReassignments of one partition; {@code target} null cancels. */
    ReassignmentResult reassign(String topic, int p, int[] target) {
        DeltaRecord delta = new DeltaRecord();
        Map<PartitionRef, int[]> targets = new java.util.LinkedHashMap<>();
        targets.put(new PartitionRef(topic, p), target);
        List<ReassignmentResult> r = control.alterReassignments(state, targets, delta);
        apply(delta);
        return r.get(0);
    }

    /** CreatePartitions ({@link PartitionGrowth}) through the same delta path. */
    List<CreatePartitionsResult> grow(boolean validateOnly, PartitionIncrease... increases) {
        DeltaRecord delta = new DeltaRecord();
        List<CreatePartitionsResult> r = PartitionGrowth.grow(state, List.of(increases), validateOnly, delta);
        apply(delta);
        return r;
    }

    /** An administrative ISR change ({@link ReplicationControl#setIsrs}). */
    void setIsr(String topic, int p, int... isr) throws Exception {
        DeltaRecord delta = new DeltaRecord();
        control.setIsrs(state, Map.of(new PartitionRef(topic, p), isr), delta);
        apply(delta);
    }

    void rebalance() {
        DeltaRecord delta = new DeltaRecord();
        control.rebalanceLeaders(state, delta);
        apply(delta);
    }

    /** Applies {@code delta} the way the publisher does; an empty one is not published. */
    private void apply(DeltaRecord delta) {
        lastDelta = delta;
        if (delta.isEmpty()) {
            return;
        }
        delta.controllerEpoch = state.controllerEpoch();
        delta.prevSeq = state.appliedSeq();
        ClusterState before = state;
        state = before.apply(delta, before.appliedSeq() + 1);
        control.applied(before, delta, state);
    }
}
