package io.sluice.cli.rebalance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.CommandFailedException;
import io.sluice.cluster.assign.RebalancePlanner.Broker;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;

/**
 * The racks the planner is given: a mix of brokers with and without {@code broker.rack} is refused, as
 * kafka-reassign-partitions --generate refuses it, unless racks are ignored; a broker being removed does not count.
 */
class RebalanceRacksTest {
    private static final Node RACKED_A = new Node(1, "h", 1, "a");
    private static final Node RACKED_B = new Node(2, "h", 2, "b");
    private static final Node UNRACKED = new Node(3, "h", 3);

    /** Brokers without a rack used to count as one rack "", which drew a replica of every partition. */
    @Test
    void shouldRefuseBrokersWithAndWithoutRackNamingThoseWithout() {
        CommandFailedException refused = assertThrows(
                CommandFailedException.class,
                () -> RebalanceInputs.brokersOf(List.of(RACKED_A, RACKED_B, UNRACKED), Set.of(), false));
        assertTrue(refused.getMessage().contains("broker(s) [3] have no broker.rack"), refused::getMessage);
        assertTrue(refused.getMessage().contains("--disable-rack-aware"), refused::getMessage);
    }

    @Test
    void shouldPlanWithoutRacksWhenTheyAreIgnored() {
        assertEquals(
                List.of(new Broker(1, ""), new Broker(2, ""), new Broker(3, "")),
                RebalanceInputs.brokersOf(List.of(RACKED_A, RACKED_B, UNRACKED), Set.of(), true));
    }

    @Test
    void shouldNotCountTheRackOfABrokerBeingRemoved() {
        assertEquals(
                List.of(new Broker(1, "a"), new Broker(2, "b"), new Broker(3, "")),
                RebalanceInputs.brokersOf(List.of(RACKED_A, RACKED_B, UNRACKED), Set.of(3), false));
        assertThrows(
                CommandFailedException.class,
                () -> RebalanceInputs.brokersOf(List.of(RACKED_A, RACKED_B, UNRACKED), Set.of(2), false));
    }

    @Test
    void shouldKeepRacksWhenEveryBrokerOrNoneHasOne() {
        assertEquals(
                List.of(new Broker(1, "a"), new Broker(2, "b")),
                RebalanceInputs.brokersOf(List.of(RACKED_A, RACKED_B), Set.of(), false));
        assertEquals(
                List.of(new Broker(3, ""), new Broker(4, "")),
                RebalanceInputs.brokersOf(List.of(UNRACKED, new Node(4, "h", 4)), Set.of(), false));
    }
}
