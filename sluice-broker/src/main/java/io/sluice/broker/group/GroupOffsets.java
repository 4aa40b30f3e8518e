package io.sluice.broker.group;

import java.util.List;

/**
 * One group's committed offsets as its coordinator holds them at one moment, for consumer lag: the group's state,
 * member count and every committed offset, read together under the group's lock.
 *
 * <p>Immutable.
 */
public record GroupOffsets(String groupId, String state, int members, List<Committed> committed) {
    public GroupOffsets {
        committed = List.copyOf(committed);
    }

    /** The offset the group committed for one partition. */
    public record Committed(String topic, int partition, long offset) {}
}
