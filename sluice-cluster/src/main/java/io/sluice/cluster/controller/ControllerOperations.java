package io.sluice.cluster.controller;

import io.sluice.cluster.state.AclEntry;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.ScramCredentialEntry;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.state.wire.DeltaRecord;
import io.sluice.cluster.state.wire.SnapshotManifest;
import io.sluice.cluster.state.wire.TopicRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The bodies of {@link ClusterController}'s public operations, each documented on the controller method of the same
 * name: given the published state, an operation decides its change (itself, or through {@link PartitionGrowth},
 * {@link ReplicationControl}, {@link ConfigControl} or {@link SecurityDeltas}), publishes it as one delta through
 * {@link StatePublisher} (nothing when the delta is empty or the request only validates) and returns its answer.
 * Queuing on the controller thread, refusing when not the controller and handling fencing stay with
 * {@link ClusterController}.
 *
 * <p>Not thread-safe; one per {@link ClusterController}, called only on its controller thread.
 */
final class ControllerOperations {

    private final StatePublisher publisher;
    private final ReplicationControl replication;

    ControllerOperations(StatePublisher publisher, ReplicationControl replication) {
        this.publisher = publisher;
        this.replication = replication;
    }

    TopicState createTopic(
            ClusterState state, String name, int partitions, int replicationFactor, Map<String, String> configs)
            throws Exception {
        return publishTopic(PartitionGrowth.placedTopic(state, name, partitions, replicationFactor, configs));
    }

    TopicState createTopic(
            ClusterState state, String name, int[][] replicas, Map<String, String> configs, boolean validateOnly)
            throws Exception {
        TopicState topic = PartitionGrowth.manualTopic(state, name, replicas, configs);
        return validateOnly ? topic : publishTopic(topic);
    }

    private TopicState publishTopic(TopicState topic) throws Exception {
        DeltaRecord delta = new DeltaRecord();
        delta.createdTopics.add(TopicRecord.of(topic));
        publisher.publish(delta);
        return publisher.state().topic(topic.name());
    }

    List<CreatePartitionsResult> createPartitions(
            ClusterState state, List<PartitionIncrease> increases, boolean validateOnly) throws Exception {
        DeltaRecord delta = new DeltaRecord();
        List<CreatePartitionsResult> results = PartitionGrowth.grow(state, increases, validateOnly, delta);
        publishIfAny(delta);
        return results;
    }

    void deleteTopic(ClusterState state, String name) throws Exception {
        TopicState topic = state.topic(name);
        if (topic == null) {
            throw new UnknownTopicException("topic '" + name + "' does not exist");
        }
        DeltaRecord delta = new DeltaRecord();
        delta.deletedTopics.add(topic.id());
        publisher.publish(delta);
    }

    ClusterState electPreferredLeaders(ClusterState state, Collection<PartitionRef> refs) throws Exception {
        DeltaRecord delta = new DeltaRecord();
        for (ElectionResult r : replication.electLeaders(state, refs, ElectionType.PREFERRED, delta)) {
            if (r.error() == ReplicationError.UNKNOWN_TOPIC_OR_PARTITION) {
                throw new UnknownTopicException("partition " + r.partition() + " does not exist");
            }
        }
        return publishIfAny(delta);
    }

    List<ElectionResult> electLeaders(ClusterState state, Collection<PartitionRef> refs, ElectionType type)
            throws Exception {
        DeltaRecord delta = new DeltaRecord();
        List<ElectionResult> results = replication.electLeaders(state, refs, type, delta);
        publishIfAny(delta);
        return results;
    }

    List<ReassignmentResult> alterPartitionReassignments(ClusterState state, Map<PartitionRef, int[]> targets)
            throws Exception {
        DeltaRecord delta = new DeltaRecord();
        List<ReassignmentResult> results = replication.alterReassignments(state, targets, delta);
        publishIfAny(delta);
        return results;
    }

    ClusterState alterIsr(ClusterState state, Map<PartitionRef, int[]> isrs) throws Exception {
        DeltaRecord delta = new DeltaRecord();
        replication.setIsrs(state, isrs, delta);
        return publishIfAny(delta);
    }

    List<AlterPartitionResult> alterPartition(ClusterState state, int leaderId, List<IsrChangeRequest> changes)
            throws Exception {
        DeltaRecord delta = new DeltaRecord();
        List<AlterPartitionResult> results = replication.alterPartition(state, leaderId, changes, delta);
        publishIfAny(delta);
        return results;
    }

    ControlledShutdownResult controlledShutdown(ClusterState state, int brokerId) throws Exception {
        DeltaRecord delta = new DeltaRecord();
        ControlledShutdownResult result = replication.controlledShutdown(state, brokerId, delta);
        publishIfAny(delta);
        return result;
    }

    List<ConfigChangeResult> alterConfigs(
            ClusterState state, List<ConfigChange> changes, ConfigSchema schema, boolean validateOnly)
            throws Exception {
        DeltaRecord delta = new DeltaRecord();
        List<ConfigChangeResult> results =
                ConfigControl.alter(state, changes, schema, validateOnly, delta.configChanges);
        publishIfAny(delta);
        return results;
    }

    <T> T alterAcls(ClusterState state, AclChange<T> change) throws Exception {
        List<AclEntry> add = new ArrayList<>();
        List<AclEntry> remove = new ArrayList<>();
        T answer = change.decide(state.acls(), add, remove);
        DeltaRecord delta = new DeltaRecord();
        SecurityDeltas.aclChanges(state, add, remove, delta);
        publishIfAny(delta);
        return answer;
    }

    <T> T alterScramCredentials(ClusterState state, ScramChange<T> change) throws Exception {
        List<ScramCredentialEntry> set = new ArrayList<>();
        List<ScramCredentialEntry.Key> delete = new ArrayList<>();
        T answer = change.decide(state.scramCredentials(), set, delete);
        DeltaRecord delta = new DeltaRecord();
        SecurityDeltas.scramChanges(state, set, delete, delta);
        publishIfAny(delta);
        return answer;
    }

    SnapshotManifest writeSnapshotNow() throws Exception {
        publisher.writeSnapshot();
        return publisher.head();
    }

    private ClusterState publishIfAny(DeltaRecord delta) throws Exception {
        if (!delta.isEmpty()) {
            publisher.publish(delta);
        }
        return publisher.state();
    }
}
