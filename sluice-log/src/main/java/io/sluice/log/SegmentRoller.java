package io.sluice.log;

import io.sluice.log.segment.LogSegment;
import java.io.IOException;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts new active segments of a partition log: rolls when the active one is full, old, out of relative offsets or
 * out of index entries (with a producer snapshot at the new base), and replaces an empty active segment.
 * Not thread-safe; called only under the partition's lock.
 */
final class SegmentRoller {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionLog.class);

    private final PartitionLogState state;

    SegmentRoller(PartitionLogState state) {
        this.state = state;
    }

    /** @param appendMaxTimestamp the largest batch timestamp of the append, which ages the segment as in Kafka */
    LogSegment maybeRoll(int appendBytes, long lastOffset, long appendMaxTimestamp, long nowMs) throws IOException {
        LogSegment active = state.segments[state.segments.length - 1];
        if (active.size() == 0) {
            return active;
        }
        boolean full = (long) active.size() + appendBytes > state.config.segmentBytes();
        boolean old = active.isOlderThan(state.config.maxSegmentMs(), appendMaxTimestamp, nowMs);
        boolean offsetOverflow = lastOffset - active.baseOffset() > Integer.MAX_VALUE;
        if (full || old || offsetOverflow || active.isIndexFull()) {
            return rollAt(state.logEndOffset, nowMs);
        }
        return active;
    }

    LogSegment rollAt(long baseOffset, long nowMs) throws IOException {
        LogSegment[] segments = state.segments;
        LogSegment previous = segments[segments.length - 1];
        previous.onBecomeInactive();
        LogSegment created = state.createSegment(baseOffset, nowMs);
        LogSegment[] next = Arrays.copyOf(segments, segments.length + 1);
        next[next.length - 1] = created;
        state.segments = next;
        state.directoryNeedsFsync = true;
        state.writeProducerSnapshot(baseOffset);
        LOG.debug("rolled {} to a new segment at offset {}", state.name, baseOffset);
        return created;
    }

    LogSegment replaceEmptyActive(long baseOffset) throws IOException {
        LogSegment[] segments = state.segments;
        LogSegment empty = segments[segments.length - 1];
        empty.closeAndDelete();
        LogSegment created = state.createSegment(baseOffset, state.clock.getAsLong());
        LogSegment[] next = segments.clone();
        next[next.length - 1] = created;
        state.segments = next;
        state.directoryNeedsFsync = true;
        return created;
    }
}
