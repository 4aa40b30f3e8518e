/**
 * The cluster's broker-to-broker and controller messages, all registered in
 * {@link io.sluice.codec.cluster.ClusterMessages#REGISTRY}:
 * <ul>
 *   <li>{@link io.sluice.codec.cluster.PartitionStateReport} — broker to controller; per partition
 *       ({@link io.sluice.codec.cluster.PartitionState}): topic id, partition, leader epoch, log start/end offsets,
 *       high watermark, ISR (v1 adds last stable offset); the list travels zstd-compressed;</li>
 *   <li>{@link io.sluice.codec.cluster.PartitionMap} — brokers (endpoint/id parallel lists) and every
 *       {@link io.sluice.codec.cluster.PartitionAssignment}; the cluster state streamed to ZooKeeper with
 *       {@link io.sluice.codec.compress.StateCodec}, and pushed to brokers zlib-compressed inside
 *       {@link io.sluice.codec.cluster.FullPartitionMap};</li>
 *   <li>partition moves: {@link io.sluice.codec.cluster.StartMove}, {@link io.sluice.codec.cluster.MoveChunkHeader}
 *       (leader-epoch tagged, precedes sendfile bytes), {@link io.sluice.codec.cluster.MoveChunkAck} (also the
 *       resume-from request), {@link io.sluice.codec.cluster.MoveComplete}, {@link io.sluice.codec.cluster.MoveAbort}.</li>
 * </ul>
 */
package io.sluice.codec.cluster;
