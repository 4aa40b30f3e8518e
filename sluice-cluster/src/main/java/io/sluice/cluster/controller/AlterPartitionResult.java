package io.sluice.cluster.controller;

import io.sluice.cluster.state.PartitionState;
import java.util.UUID;

/**
 * The controller's answer to one {@link IsrChangeRequest}: {@link ReplicationError#NONE} with the partition as
 * published (its new partition epoch), or the error with the partition's current state so the leader can resync
 * ({@code state} is null only when the partition does not exist). Immutable; safe to share.
 *
 * @param topicId   the topic id the request named
 * @param partition the partition index the request named
 * @param error     the outcome, Kafka's error code through {@link ReplicationError#kafkaCode()}
 * @param state     the partition after the request (leader, leaderEpoch, partitionEpoch, isr), null when unknown
 */
public record AlterPartitionResult(UUID topicId, int partition, ReplicationError error, PartitionState state) {}
