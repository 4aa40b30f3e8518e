package io.sluice.log.ship;

import io.sluice.log.epoch.EpochEntry;
import java.nio.file.Path;
import java.util.List;

/**
 * Verified files in a staging directory, ready to become a partition log (see
 * {@code PartitionLog.installStaged}): {@code <base>.log} for each segment (whole batches, every CRC checked), with
 * its {@code .index} and {@code .timeindex} when {@code indexed}, and optionally {@code <offset>.snapshot}.
 * Immutable; thread-safe.
 *
 * @param stagingDir             directory holding the files; on the same file system as the log (renames are atomic)
 * @param baseOffsets            segment base offsets, increasing
 * @param lastOffsets            last offset of each segment, as the source listed it
 * @param logStartOffset         the source's log start offset
 * @param boundaryOffset         where the installed log ends and follower fetch continues
 * @param epochs                 leader epochs starting below the boundary, oldest first
 * @param producerSnapshotOffset offset of the staged producer snapshot, or -1 when none was shipped
 * @param indexed                whether each segment's index files were written beside it from its checked batches
 *                               (the install then only loads them); otherwise the install builds them by reading
 *                               every batch header
 * @param durable                whether every file was forced to disk before the install: the installed log's
 *                               recovery point is then its end; otherwise it stays at the log start, the log's flush
 *                               task forces the segments within its check interval, and a crash before that recovers
 *                               them batch by batch as it does any record not yet flushed
 */
public record StagedLog(
        Path stagingDir,
        long[] baseOffsets,
        long[] lastOffsets,
        long logStartOffset,
        long boundaryOffset,
        List<EpochEntry> epochs,
        long producerSnapshotOffset,
        boolean indexed,
        boolean durable) {

    public StagedLog {
        if (baseOffsets.length != lastOffsets.length) {
            throw new IllegalArgumentException(
                    baseOffsets.length + " base offsets but " + lastOffsets.length + " last offsets");
        }
        for (int i = 0; i < baseOffsets.length; i++) {
            long nextBase = i + 1 < baseOffsets.length ? baseOffsets[i + 1] : boundaryOffset;
            if (lastOffsets[i] < baseOffsets[i] || lastOffsets[i] >= nextBase) {
                throw new IllegalArgumentException("segment " + baseOffsets[i] + " ends at " + lastOffsets[i]
                        + ", outside [" + baseOffsets[i] + ", " + nextBase + ")");
            }
        }
        baseOffsets = baseOffsets.clone();
        lastOffsets = lastOffsets.clone();
        epochs = List.copyOf(epochs);
    }
}
