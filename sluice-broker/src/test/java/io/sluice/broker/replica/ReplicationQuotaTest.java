package io.sluice.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The replication throttle's byte budget on a clock the test moves. */
class ReplicationQuotaTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void shouldLetOneSecondOfBurstThroughThenHoldToTheRate() {
        AtomicLong now = new AtomicLong(10 * SECOND);
        AtomicLong rate = new AtomicLong(1_000);
        ReplicationQuota quota = new ReplicationQuota(rate::get, now::get);
        quota.record(1_000);
        assertFalse(quota.isExceeded(), "one second's budget was saved up");
        quota.record(500);
        assertTrue(quota.isExceeded(), "half a second beyond the budget");
        now.addAndGet(SECOND / 2);
        assertFalse(quota.isExceeded(), "the clock caught up");
        assertEquals(0, quota.reserveNanos(0));
        quota.record(1_000);
        assertEquals(SECOND, quota.reserveNanos(1_000), "the next 1000 bytes wait a second behind the 1000 before");
    }

    @Test
    void shouldFollowARateChangeAndTreatMaxValueAsUnthrottled() {
        AtomicLong now = new AtomicLong(0);
        AtomicLong rate = new AtomicLong(Long.MAX_VALUE);
        ReplicationQuota quota = new ReplicationQuota(rate::get, now::get);
        quota.record(Long.MAX_VALUE / 2);
        assertFalse(quota.isExceeded());
        assertEquals(0, quota.reserveNanos(1 << 30));
        rate.set(100);
        quota.record(300);
        assertTrue(quota.isExceeded(), "300 bytes at 100/s run 2 s past the saved second");
        rate.set(Long.MAX_VALUE);
        assertFalse(quota.isExceeded(), "throttle removed: nothing waits");
    }
}
