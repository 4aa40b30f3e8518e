package io.sluice.log.ship;

import io.sluice.log.segment.BatchHeaderTable;
import java.nio.channels.FileChannel;

/**
 * A closed (no longer appended) segment being shipped to a new replica: its offsets, its size when it was pinned and
 * the open channel of its {@code .log} file, read by positional {@code transferTo} only. Immutable; thread-safe.
 *
 * @param baseOffset  the offset in the segment's file name
 * @param lastOffset  the last offset of its last batch
 * @param sizeInBytes bytes of whole batches in the file; a closed segment does not grow
 * @param channel     the segment's channel, owned by the log (never closed by a shipper)
 * @param batchHeaders its batch headers as appended in this process, or null when none were kept
 */
public record ClosedSegment(
        long baseOffset, long lastOffset, int sizeInBytes, FileChannel channel, BatchHeaderTable batchHeaders) {}
