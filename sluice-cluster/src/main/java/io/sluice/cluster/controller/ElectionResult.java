package io.sluice.cluster.controller;

import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.PartitionState;

/**
 * The outcome of a leader election for one partition (Kafka's ElectLeaders ReplicaElectionResult). Immutable; safe
 * to share.
 *
 * @param partition the partition named in the request
 * @param error     NONE when a new leader was elected, else why not (ELECTION_NOT_NEEDED,
 *                  PREFERRED_LEADER_NOT_AVAILABLE, ELIGIBLE_LEADERS_NOT_AVAILABLE, UNKNOWN_TOPIC_OR_PARTITION)
 * @param message   a human-readable reason, empty on success
 * @param state     the partition after the election, null when it does not exist
 */
public record ElectionResult(PartitionRef partition, ReplicationError error, String message, PartitionState state) {}
