/**
 * Durable storage of consumer groups: {@link io.sluice.broker.group.store.FileGroupStore} appends CRC-32C framed
 * batches of {@link io.sluice.broker.group.store.GroupRecord}s to one file per partition of the group space
 * (layout in {@link io.sluice.broker.group.store.GroupLogDescriptor}), fsyncs before acknowledging, truncates a
 * torn tail on load and rewrites a file as a snapshot of its live records when most of it is dead.
 */
package io.sluice.broker.group.store;
