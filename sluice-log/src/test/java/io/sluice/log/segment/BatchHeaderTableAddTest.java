package io.sluice.log.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link BatchHeaderTable#add}: batches are taken only where the last one ended (the first at 0), so a table never
 * describes bytes an append failed to write; growing past the first capacity keeps every entry and is charged to the
 * budget.
 */
class BatchHeaderTableAddTest {

    @Test
    void shouldTakeOnlyABatchThatStartsWhereTheLastEnded() {
        BatchHeaderTables tables = new BatchHeaderTables(1 << 20);
        BatchHeaderTable table = tables.create();
        assertFalse(table.add(100, 1, 2, 200), "the first batch starts at 0");
        assertTrue(table.add(0, 1, 2, 100));
        assertFalse(table.add(150, 3, 4, 300), "a gap");
        assertFalse(table.add(50, 3, 4, 300), "an overlap (the same batch written again)");
        assertTrue(table.add(100, 3, 4, 300));
        assertEquals(2, table.count());
        assertEquals(300, table.end());
        assertEquals(100, table.endOf(0, 2));
        assertEquals(1, table.firstAtOrAfter(1, 2));
    }

    @Test
    void shouldKeepEveryEntryWhenItGrowsAndChargeTheBudget() {
        BatchHeaderTables tables = new BatchHeaderTables(1 << 20);
        BatchHeaderTable table = tables.create();
        long first = tables.bytes();
        for (int i = 0; i < 1_000; i++) {
            assertTrue(table.add(10 * i, i, -i, 10 * i + 10));
        }
        assertTrue(tables.bytes() > first, "growth is charged: " + tables.bytes());
        for (int i = 0; i < 1_000; i++) {
            assertEquals(10 * i, table.position(i));
            assertEquals(i, table.headerCrc(i));
            assertEquals(-i, table.storedCrc(i));
        }
        table.release();
        assertEquals(0, tables.bytes());
    }
}
