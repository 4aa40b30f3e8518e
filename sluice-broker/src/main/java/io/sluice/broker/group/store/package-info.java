/**
 * Durable storage of consumer groups on {@code __consumer_offsets}:
 * {@link io.sluice.broker.group.store.ReplicatedGroupStore} appends each atomic change of a group as one Kafka record
 * batch to the partition the group hashes to, through the partition leader's log, and waits until every in-sync
 * replica holds it; a partition's groups are reloaded by replaying its log
 * ({@link io.sluice.broker.group.store.GroupPartitionReader}). Records are laid out as in
 * {@link io.sluice.broker.group.store.GroupRecordDescriptor}; the group files of the store that preceded the topic
 * ({@link io.sluice.broker.group.store.GroupLogDescriptor}) are imported once
 * ({@link io.sluice.broker.group.store.GroupStoreMigration}).
 */
package io.sluice.broker.group.store;
