/**
 * Znode encodings of the cluster state: sluice-codec messages ({@link io.sluice.cluster.state.wire.SnapshotRecord},
 * {@link io.sluice.cluster.state.wire.DeltaRecord}, {@link io.sluice.cluster.state.wire.TopicRecord},
 * {@link io.sluice.cluster.state.wire.BrokerRecord}, {@link io.sluice.cluster.state.wire.PartitionChangeRecord})
 * streamed through the compressor into parts by {@link io.sluice.cluster.state.wire.StateSerializer}, and the
 * snapshot manifest layout ({@link io.sluice.cluster.state.wire.SnapshotManifestDescriptor}).
 */
package io.sluice.cluster.state.wire;
