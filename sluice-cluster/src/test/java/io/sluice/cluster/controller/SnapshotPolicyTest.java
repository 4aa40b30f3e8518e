package io.sluice.cluster.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SnapshotPolicyTest {

    @Test
    void shouldFoldOnceDeltasWeighAsMuchAsTheSnapshotButNeverBeforeTheMinimum() {
        SnapshotPolicy p = new SnapshotPolicy(100, 1000);
        assertFalse(p.shouldFold(99, 1_000_000, 10), "below the minimum count, whatever the weight");
        assertTrue(p.shouldFold(100, 0, 0), "no snapshot yet: the minimum count decides");
        assertFalse(p.shouldFold(100, 7_000, 14_000), "deltas still lighter than the snapshot");
        assertTrue(p.shouldFold(200, 14_000, 14_000));
        assertTrue(p.shouldFold(1000, 1, 1 << 30), "the delta log never outgrows the cap");
    }

    @Test
    void shouldKeepTheFoldIntervalProportionalToTheSnapshotSoTheAmortisedCostStaysFlat() {
        SnapshotPolicy p = new SnapshotPolicy(100, 1000);
        assertEquals(100, p.deltasPerFold(1_500, 70), "small state: the minimum");
        assertEquals(215, p.deltasPerFold(15_000, 70));
        assertEquals(1000, p.deltasPerFold(1 << 30, 70), "capped");
        // Amortised snapshot bytes per delta stay at most one delta's bytes once the interval follows the size.
        for (long snapshot = 7_000; snapshot <= 70_000; snapshot += 7_000) {
            assertTrue((double) snapshot / p.deltasPerFold(snapshot, 70) <= 70, "snapshot " + snapshot);
        }
    }

    @Test
    void shouldCapTheDeltaLogSoItsListingFitsOneResponse() {
        int partBytes = 32 * 1024 - 4096;
        SnapshotPolicy p = SnapshotPolicy.of(100, partBytes);
        assertEquals(100, p.minDeltas());
        // Two intervals of deltas are listed at most (the previous one is pruned a fold later).
        assertTrue(2L * p.maxDeltas() * SnapshotPolicy.LISTED_DELTA_BYTES <= partBytes / 2, "cap " + p.maxDeltas());
        assertEquals(3, SnapshotPolicy.of(3, 100).maxDeltas(), "never below the minimum");
        assertThrows(IllegalArgumentException.class, () -> new SnapshotPolicy(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new SnapshotPolicy(10, 9));
    }
}
