package io.sluice.cluster.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BrokerIdsTest {
    @Test
    void shouldTellMembership() {
        assertTrue(BrokerIds.contains(new int[] {3, 1, 2}, 1));
        assertFalse(BrokerIds.contains(new int[] {3, 1, 2}, 4));
        assertFalse(BrokerIds.contains(new int[0], 1));
    }

    @Test
    void shouldDropOneIdKeepingOrderAndGiveTheSameArrayWhenItIsAbsent() {
        int[] ids = {3, 1, 2};
        assertArrayEquals(new int[] {3, 2}, BrokerIds.without(ids, 1));
        assertSame(ids, BrokerIds.without(ids, 5));
        assertArrayEquals(new int[0], BrokerIds.without(new int[] {7}, 7));
    }

    @Test
    void shouldSubtractAndIntersectInTheOrderOfTheFirstArray() {
        int[] ids = {4, 2, 6, 1};
        assertArrayEquals(new int[] {2, 6}, BrokerIds.minus(ids, new int[] {1, 4}));
        int[] none = BrokerIds.minus(ids, new int[0]);
        assertArrayEquals(ids, none);
        assertNotSame(ids, none);
        assertArrayEquals(new int[] {6, 1}, BrokerIds.intersect(ids, new int[] {1, 6, 9}));
        assertArrayEquals(new int[0], BrokerIds.intersect(ids, new int[0]));
    }

    @Test
    void shouldUniteKeepingTheFirstArrayFirstWithoutDuplicates() {
        int[] a = {2, 1};
        assertArrayEquals(new int[] {2, 1, 3, 4}, BrokerIds.union(a, new int[] {1, 3, 2, 4}));
        int[] same = BrokerIds.union(a, new int[0]);
        assertArrayEquals(a, same);
        assertNotSame(a, same);
        assertArrayEquals(new int[] {5}, BrokerIds.union(new int[0], new int[] {5}));
    }
}
