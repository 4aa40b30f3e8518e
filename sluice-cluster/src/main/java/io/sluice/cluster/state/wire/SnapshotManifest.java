package io.sluice.cluster.state.wire;

import io.sluice.codec.compress.Compression;

/**
 * What the head znode (and each snapshot directory's manifest) says about a snapshot: which one, who wrote it, which
 * delta it ends at, and how its parts add up. Layout in {@link SnapshotManifestDescriptor}. Immutable; safe to share.
 *
 * @param snapshotId      snapshot number, the {@code snapshot-<n>} directory
 * @param controllerEpoch epoch of the controller that wrote it
 * @param lastDeltaSeq    the last delta folded in
 * @param partCount       number of parts
 * @param totalLength     compressed bytes over all parts (headers excluded)
 * @param streamCrc       CRC-32C of the whole compressed stream
 * @param compression     format of the stream
 */
public record SnapshotManifest(
        long snapshotId,
        int controllerEpoch,
        long lastDeltaSeq,
        int partCount,
        int totalLength,
        int streamCrc,
        Compression compression) {}
