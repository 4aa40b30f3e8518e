package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import io.sluice.log.segment.BatchHeaderTables;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Appends write the caller's buffer to the file in place: a few small objects per append, no copy of the batch. */
class AppendAllocationTest {
    @TempDir
    Path tmp;

    private static long allocatedPerAppend(PartitionLog log, ByteBuffer[] batches, int appends) throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);
        long threadId = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(threadId);
        for (int i = 0; i < appends; i++) {
            log.appendAsLeader(batches[i], 0, 5_000);
        }
        return (threads.getThreadAllocatedBytes(threadId) - before) / appends;
    }

    @Test
    void shouldAllocateOnlyAFewSmallObjectsPerAppend() throws Exception {
        try (PartitionLog log = PartitionLog.open(tmp.resolve("alloc-0"), LogConfig.defaults(), new RecoveryReport())) {
            assertFewSmallObjectsPerAppend(log);
        }
    }

    @Test
    void shouldAllocateOnlyAFewSmallObjectsPerAppendKeepingBatchHeaders() throws Exception {
        BatchHeaderTables tables = new BatchHeaderTables(1 << 24);
        try (PartitionLog log = PartitionLog.open(
                tmp.resolve("alloc-1"), LogConfig.defaults(), new RecoveryReport(), 0, 0, () -> 5_000, tables)) {
            assertFewSmallObjectsPerAppend(log);
            assertTrue(tables.bytes() > 0, "the headers were kept");
        }
    }

    private static void assertFewSmallObjectsPerAppend(PartitionLog log) throws Exception {
        int appends = 2_000;
        ByteBuffer[] plain = new ByteBuffer[2 * appends];
        ByteBuffer[] idempotent = new ByteBuffer[2 * appends];
        for (int i = 0; i < 2 * appends; i++) {
            plain[i] = TestBatches.batch(1_000, 8, 500);
            idempotent[i] =
                    TestBatches.idempotent(4242, (short) 0, 8 * i, 1_000, "a", "b", "c", "d", "e", "f", "g", "h");
        }
        allocatedPerAppend(log, plain, appends);
        long plainBytes = allocatedPerAppend(log, java.util.Arrays.copyOfRange(plain, appends, 2 * appends), appends);
        assertTrue(
                plainBytes < 512,
                plainBytes + " bytes allocated per append of a " + plain[0].remaining() + "-byte batch");

        allocatedPerAppend(log, idempotent, appends);
        long idempotentBytes =
                allocatedPerAppend(log, java.util.Arrays.copyOfRange(idempotent, appends, 2 * appends), appends);
        assertTrue(idempotentBytes < 1024, idempotentBytes + " bytes allocated per idempotent append");
    }
}
