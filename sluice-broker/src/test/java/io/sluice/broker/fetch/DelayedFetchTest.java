package io.sluice.broker.fetch;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link DelayedFetch} answers exactly once: with the read that brings min_bytes, with the last read when max_wait_ms
 * passes, or, when a read throws, by failing (its connection is then closed) instead of staying unanswered.
 *
 * <p>Not thread-safe; JUnit runs it on one thread, the fetch's timer on another.
 */
class DelayedFetchTest {
    private static final int MIN_BYTES = 100;
    private static final int MAX_WAIT_MS = 20;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopTimer() throws InterruptedException {
        timer.shutdownNow();
        timer.awaitTermination(5, TimeUnit.SECONDS);
    }

    private CompletableFuture<ApiMessage> park(DelayedFetch.Reads reads) {
        return new DelayedFetch(null, reads, List.of(), MIN_BYTES, MAX_WAIT_MS, timer, false).start();
    }

    private static FetchReader.Result result(long bytes) {
        return new FetchReader.Result(new FetchResponseData(), bytes, false);
    }

    @Test
    void shouldAnswerTheLastReadWhenTheWaitEnds() throws Exception {
        FetchReader.Result small = result(1);

        CompletableFuture<ApiMessage> answer = park(() -> small);

        assertSame(small.response(), answer.get(5, TimeUnit.SECONDS));
    }

    @Test
    void shouldFailTheFetchWhenItsFirstReadThrows() {
        IllegalStateException broken = new IllegalStateException("leadership ended mid-read");

        CompletableFuture<ApiMessage> answer = park(() -> {
            throw broken;
        });

        ExecutionException failed = assertThrows(ExecutionException.class, () -> answer.get(5, TimeUnit.SECONDS));
        assertSame(broken, failed.getCause());
    }

    @Test
    void shouldFailTheFetchWhenTheReadAtTheEndOfTheWaitThrows() {
        IllegalStateException broken = new IllegalStateException("leadership ended mid-read");
        AtomicInteger reads = new AtomicInteger();

        CompletableFuture<ApiMessage> answer = park(() -> {
            if (reads.incrementAndGet() > 1) {
                throw broken;
            }
            return result(1);
        });

        ExecutionException failed = assertThrows(ExecutionException.class, () -> answer.get(5, TimeUnit.SECONDS));
        assertSame(broken, failed.getCause());
    }
}
