package io.sluice.broker.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The bounds a group coordinator's settings keep however they are built (the broker's keys are checked first). */
class GroupCoordinatorConfigTest {

    @Test
    void shouldRefuseValuesBelowTheirBoundsNamingTheKey() {
        IllegalArgumentException tooSmall =
                assertThrows(IllegalArgumentException.class, () -> withSessionsAndSize(6000, 1_800_000, 0));
        assertEquals("group.max.size must be at least 1, was 0", tooSmall.getMessage());

        IllegalArgumentException maxBelowMin =
                assertThrows(IllegalArgumentException.class, () -> withSessionsAndSize(10_000, 9_000, 1));
        assertEquals("group.max.session.timeout.ms must be at least 10000, was 9000", maxBelowMin.getMessage());
    }

    @Test
    void shouldKeepOffsetsForTheRetentionMinutesInMilliseconds() {
        assertEquals(10080L * 60_000, GroupCoordinatorConfig.defaults().offsetsRetentionMs());
    }

    /** The defaults with the session timeout bounds and group.max.size given. */
    private static GroupCoordinatorConfig withSessionsAndSize(int minSessionMs, int maxSessionMs, int maxSize) {
        GroupCoordinatorConfig d = GroupCoordinatorConfig.defaults();
        return new GroupCoordinatorConfig(
                d.initialRebalanceDelayMs(),
                minSessionMs,
                maxSessionMs,
                maxSize,
                d.offsetsRetentionMinutes(),
                d.offsetsRetentionCheckIntervalMs(),
                d.offsetMetadataMaxBytes(),
                d.offsetsTopicNumPartitions(),
                d.memberMetadataMaxBytes(),
                d.offsetsCommitTimeoutMs());
    }
}
