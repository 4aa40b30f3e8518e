package io.sluice.cluster.controller;

import io.sluice.cluster.state.PartitionRef;

/**
 * The outcome of one partition of an AlterPartitionReassignments request. Immutable; safe to share.
 *
 * @param partition the partition named in the request
 * @param error     NONE when the reassignment was started, changed or cancelled; else UNKNOWN_TOPIC_OR_PARTITION,
 *                  INVALID_REPLICA_ASSIGNMENT (a bad target, or a change or cancel that would need an unclean leader
 *                  election) or NO_REASSIGNMENT_IN_PROGRESS
 * @param message   why not, null on success
 */
public record ReassignmentResult(PartitionRef partition, ReplicationError error, String message) {}
