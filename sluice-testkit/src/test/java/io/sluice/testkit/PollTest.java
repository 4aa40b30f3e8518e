package io.sluice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class PollTest {
    private static final Duration GENEROUS = Duration.ofSeconds(30);

    @Test
    void shouldReturnTheFirstValueThatSatisfiesTheCondition() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        assertEquals(3, Poll.until("three calls", GENEROUS, calls::incrementAndGet, n -> n >= 3));
        assertEquals(3, calls.get());
    }

    @Test
    void shouldTreatAThrowingProbeAsNotYet() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        String value = Poll.until(
                "a broker that refuses twice",
                GENEROUS,
                () -> {
                    if (calls.incrementAndGet() < 3) {
                        throw new IOException("connection refused");
                    }
                    return "up";
                },
                "up"::equals);
        assertEquals("up", value);
    }

    @Test
    void shouldFailNamingWhatWasAwaitedAndTheLastValueSeen() {
        AssertionError failure = assertThrows(
                AssertionError.class, () -> Poll.until("the answer", Duration.ZERO, () -> 41, n -> n == 42));
        assertTrue(failure.getMessage().contains("the answer"), failure.getMessage());
        assertTrue(failure.getMessage().contains("last seen: 41"), failure.getMessage());
    }

    @Test
    void shouldAddDiagnosticsToAFailureOnly() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        Supplier<String> diagnostics = () -> {
            asked.incrementAndGet();
            return "broker log tail: started";
        };
        assertEquals(1, Poll.until("one", GENEROUS, () -> 1, n -> n == 1, diagnostics));
        assertEquals(0, asked.get(), "diagnostics are computed only for a failure");

        AssertionError failure = assertThrows(
                AssertionError.class,
                () -> Poll.until("the answer", Duration.ZERO, () -> 41, n -> n == 42, diagnostics));
        assertTrue(failure.getMessage().contains("last seen: 41"), failure.getMessage());
        assertTrue(failure.getMessage().endsWith("\nbroker log tail: started"), failure.getMessage());
        assertEquals(1, asked.get());
    }

    @Test
    void shouldKeepTheLastProbeFailureAsCause() {
        AssertionError failure = assertThrows(
                AssertionError.class,
                () -> Poll.until(
                        "a dead broker",
                        Duration.ZERO,
                        () -> {
                            throw new IOException("connection refused");
                        },
                        v -> true));
        assertInstanceOf(IOException.class, failure.getCause());
        assertTrue(failure.getMessage().contains("connection refused"), failure.getMessage());
    }
}
