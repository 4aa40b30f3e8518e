package io.sluice.broker.move;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FixedByteRateLimiterTest {

    @Test
    void shouldLetTheFirstReservationGoAndMakeTheNextWaitForItsShare() {
        FixedByteRateLimiter limiter = new FixedByteRateLimiter(1_000_000);
        assertEquals(0, limiter.reserveNanos(1_000_000));
        long wait = limiter.reserveNanos(1);
        assertTrue(wait > 0 && wait <= 1_000_000_000L, "the second waits for the first's second: " + wait);
    }

    @Test
    void shouldNeverWaitWhenUnlimited() {
        assertEquals(0, ByteRateLimiter.UNLIMITED.reserveNanos(Long.MAX_VALUE));
    }

    @Test
    void shouldRefuseANonPositiveRate() {
        assertThrows(IllegalArgumentException.class, () -> new FixedByteRateLimiter(0));
    }
}
