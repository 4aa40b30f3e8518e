package io.sluice.cluster.controller;

/**
 * The outcome of one topic of a CreatePartitions request. Immutable; safe to share.
 *
 * @param topic   the topic named in the request
 * @param error   NONE when the partitions were added (or, validating only, would be); else
 *                UNKNOWN_TOPIC_OR_PARTITION, INVALID_PARTITIONS, INVALID_REPLICATION_FACTOR,
 *                INVALID_REPLICA_ASSIGNMENT or REASSIGNMENT_IN_PROGRESS
 * @param message why not, null on success
 */
public record CreatePartitionsResult(String topic, ReplicationError error, String message) {
    static CreatePartitionsResult ok(String topic) {
        return new CreatePartitionsResult(topic, ReplicationError.NONE, null);
    }
}
