package io.sluice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class OutputTailTest {

    @Test
    void shouldKeepOnlyTheMostRecentLines() {
        OutputTail tail = new OutputTail(2);
        tail.append("one");
        tail.append("two");
        tail.append("three");
        assertEquals("[... 1 earlier lines dropped ...]\ntwo\nthree\n", tail.text());
    }

    @Test
    void shouldKeepEverythingBelowTheBound() {
        OutputTail tail = new OutputTail(5);
        tail.append("one");
        assertEquals("one\n", tail.text());
    }

    @Test
    void shouldRefuseNonPositiveBound() {
        assertThrows(IllegalArgumentException.class, () -> new OutputTail(0));
    }
}
