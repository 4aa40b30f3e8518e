package io.sluice.cluster.controller;

/**
 * One topic of a CreatePartitions request: the partition count it should have and, optionally, the replicas of each
 * new partition (preferred leader first). Immutable by contract (the arrays are not modified); safe to share.
 *
 * @param topic       topic name
 * @param count       the total partition count asked for
 * @param assignments replicas of each new partition in partition order, null to let the controller place them
 */
public record PartitionIncrease(String topic, int count, int[][] assignments) {}
