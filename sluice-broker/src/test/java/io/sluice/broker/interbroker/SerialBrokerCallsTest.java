package io.sluice.broker.interbroker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Calls run one at a time on the named thread with the one client; failures and a closed instance fail the future. */
class SerialBrokerCallsTest {
    private static BrokerClient client() {
        return new BrokerClient("serial-calls-test", 1024, 1_000);
    }

    @Test
    void shouldRunEachCallOnTheNamedThreadInOrderWithTheSameClient() throws Exception {
        BrokerClient client = client();
        try (SerialBrokerCalls calls = new SerialBrokerCalls("test calls", "serial-calls-test-thread", client)) {
            List<String> seen = new ArrayList<>();
            List<CompletableFuture<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                int n = i;
                answers.add(calls.submit(c -> {
                    assertSame(client, c);
                    seen.add(Thread.currentThread().getName() + ":" + n);
                    return n * 2;
                }));
            }
            for (int i = 0; i < 20; i++) {
                assertEquals(i * 2, answers.get(i).get(10, TimeUnit.SECONDS));
            }
            for (int i = 0; i < 20; i++) {
                assertEquals("serial-calls-test-thread:" + i, seen.get(i));
            }
        }
    }

    @Test
    void shouldFailTheFutureWithTheCallsException() throws Exception {
        try (SerialBrokerCalls calls = new SerialBrokerCalls("test calls", "serial-calls-test-failing", client())) {
            CompletableFuture<Object> io = calls.submit(c -> {
                throw new IOException("peer gone");
            });
            ExecutionException e = assertThrows(ExecutionException.class, () -> io.get(10, TimeUnit.SECONDS));
            assertInstanceOf(IOException.class, e.getCause());
            assertEquals("peer gone", e.getCause().getMessage());
            CompletableFuture<Object> runtime = calls.submit(c -> {
                throw new IllegalStateException("bad answer");
            });
            e = assertThrows(ExecutionException.class, () -> runtime.get(10, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertEquals(7, calls.submit(c -> 7).get(10, TimeUnit.SECONDS), "the thread survives a failed call");
        }
    }

    @Test
    void shouldFailAtOnceNamingWhatClosedAfterClose() {
        SerialBrokerCalls calls = new SerialBrokerCalls("test calls", "serial-calls-test-closed", client());
        calls.close();
        CompletableFuture<Integer> late = calls.submit(c -> 1);
        assertTrue(late.isCompletedExceptionally());
        ExecutionException e = assertThrows(ExecutionException.class, late::get);
        assertInstanceOf(IOException.class, e.getCause());
        assertEquals("test calls closed", e.getCause().getMessage());
    }
}
