package io.sluice.log;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads hand out file regions: the record bytes never pass through the heap on the way to a channel. */
class ZeroCopyReadTest {
    @TempDir
    Path tmp;

    @Test
    void shouldReadMegabytesWhileAllocatingOnlyAFewObjectsPerRead() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
        try (PartitionLog log = PartitionLog.open(tmp.resolve("big-0"), LogConfig.defaults(), new RecoveryReport());
                FileChannel sink =
                        FileChannel.open(tmp.resolve("sink"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            for (int i = 0; i < 64; i++) {
                log.appendAsLeader(TestBatches.batch(1_000, 16, 1000), 0, 5_000);
            }
            int maxBytes = 1 << 20;
            for (int i = 0; i < 50; i++) {
                log.read(0, maxBytes, Long.MAX_VALUE);
            }
            long threadId = Thread.currentThread().getId();
            int reads = 200;
            long sent = 0;
            long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = 0; i < reads; i++) {
                LogReadResult result = log.read(i % 64 * 16L, maxBytes, Long.MAX_VALUE);
                sent += result.sizeInBytes();
            }
            long allocated = threads.getThreadAllocatedBytes(threadId) - before;
            assertTrue(sent > 100L * reads * 1000, "read " + sent + " bytes");
            assertTrue(allocated < reads * 512L, allocated + " bytes allocated for " + sent + " bytes read");

            LogReadResult region = log.read(0, maxBytes, Long.MAX_VALUE);
            long transferred = region.channel().transferTo(region.position(), region.sizeInBytes(), sink);
            assertEquals(region.sizeInBytes(), transferred);
        }
    }
}
