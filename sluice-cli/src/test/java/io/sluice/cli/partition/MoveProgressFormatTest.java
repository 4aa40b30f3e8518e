package io.sluice.cli.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lines of {@code sluice partition moves}: bar, bytes, rate and ETA from two readings. */
class MoveProgressFormatTest {
    private static final long MB = 1024 * 1024;

    private static MoveProgress move(long shipped, long total, MoveProgress.Phase phase) {
        return new MoveProgress("orders", 3, List.of(4, 2, 1), List.of(4), List.of(1), total, shipped, total, phase);
    }

    @Test
    void shouldShowNoRateOnTheFirstReading() {
        assertEquals(
                "orders-3 [############------------]  50%  50.0/100.0 MB  copying  replicas [4, 2, 1] adding [4]"
                        + " removing [1]",
                MoveProgressFormat.line(move(50 * MB, 100 * MB, MoveProgress.Phase.COPYING), Map.of(), 0));
    }

    @Test
    void shouldDeriveRateAndEtaFromThePreviousReading() {
        String line = MoveProgressFormat.line(
                move(60 * MB, 100 * MB, MoveProgress.Phase.COPYING), Map.of("orders-3", 50 * MB), 2.0);
        assertEquals(
                "orders-3 [##############----------]  60%  60.0/100.0 MB  5.0 MB/s  ETA 8s  copying  replicas"
                        + " [4, 2, 1] adding [4] removing [1]",
                line);
    }

    @Test
    void shouldSayEtaZeroWhenEverythingIsShippedAndUnknownWhenNothingMoves() {
        assertEquals(
                true,
                MoveProgressFormat.line(
                                move(100 * MB, 100 * MB, MoveProgress.Phase.SWITCHING),
                                Map.of("orders-3", 100 * MB),
                                1.0)
                        .contains("ETA 0s  switching"));
        assertEquals(
                true,
                MoveProgressFormat.line(
                                move(10 * MB, 100 * MB, MoveProgress.Phase.CATCH_UP), Map.of("orders-3", 10 * MB), 1.0)
                        .contains("ETA -  catch-up"));
        assertEquals(1.0, move(0, 0, MoveProgress.Phase.SWITCHING).fraction(), "an empty partition is done");
    }

    /** A move short of its last bytes is not shown done: 99.5% rounded to 100% (and a full bar) before. */
    @Test
    void shouldShowOneHundredPercentOnlyOnceEveryByteIsShipped() {
        String line = MoveProgressFormat.line(move(995 * MB / 10, 100 * MB, MoveProgress.Phase.CATCH_UP), Map.of(), 0);
        assertEquals(
                "orders-3 [#######################-]  99%  99.5/100.0 MB  catch-up  replicas [4, 2, 1] adding [4]"
                        + " removing [1]",
                line);
    }

    @Test
    void shouldGiveClusterStatusTheSameProgressAsFields() {
        assertEquals(
                "Phase: copying\tShipped: 60.0/100.0 MB\tProgress: 60%\tRate: 5.0 MB/s\tEta: 8s",
                MoveProgressFormat.statusFields(
                        move(60 * MB, 100 * MB, MoveProgress.Phase.COPYING), Map.of("orders-3", 50 * MB), 2.0));
        assertEquals(
                "Phase: catch-up\tShipped: 99.5/100.0 MB\tProgress: 99%\tRate: -\tEta: -",
                MoveProgressFormat.statusFields(
                        move(995 * MB / 10, 100 * MB, MoveProgress.Phase.CATCH_UP), Map.of(), 0));
    }
}
