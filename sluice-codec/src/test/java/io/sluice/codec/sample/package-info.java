/**
 * Sample messages for the codec's own tests, registered in {@link io.sluice.codec.sample.ClusterMessages#REGISTRY}:
 * shapes that exercise every field type, schema versions, lists of nested messages and endpoint lists ({@link io.sluice.codec.sample.PartitionState} with a v1 field, {@link io.sluice.codec.sample.PartitionMap}
 * with parallel endpoint/id lists, {@link io.sluice.codec.sample.FullPartitionMap} with a nested map, move-control messages). Test-only: they model nothing in production. The cluster's real records are
 * sluice-cluster's {@code io.sluice.cluster.state.wire} (BrokerRecord, TopicRecord, PartitionChangeRecord,
 * DeltaRecord, SnapshotRecord).
 */
package io.sluice.codec.sample;
