package io.sluice.it;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Waits for the acknowledgements of records a test sent, so that a send that failed fails the test where it happened
 * instead of going missing in a future nobody reads.
 *
 * <p>Thread-safe; stateless.
 */
public final class Acks {
    /** Bound on one acknowledgement; callers flush first, so every one is normally complete already. */
    static final Duration ACK_TIMEOUT = Duration.ofSeconds(60);

    private Acks() {}

    /** Waits for every acknowledgement in {@code acks}; the first failed send is thrown (as ExecutionException). */
    public static void awaitAll(Collection<? extends Future<RecordMetadata>> acks)
            throws InterruptedException, ExecutionException, TimeoutException {
        for (Future<RecordMetadata> ack : acks) {
            ack.get(ACK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
