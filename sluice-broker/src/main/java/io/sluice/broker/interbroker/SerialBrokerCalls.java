package io.sluice.broker.interbroker;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A {@link BrokerClient} with a daemon thread of its own: each submitted call runs there, one at a time, and answers
 * through its future; {@link #close} stops the thread (waiting up to 5 s for the call under way) and the client.
 *
 * <p>Thread-safe: calls may be submitted from any thread; the client is used only on the calls' thread.
 */
public final class SerialBrokerCalls implements AutoCloseable {
    private final String name;
    private final BrokerClient client;
    private final ExecutorService thread;

    /** A call made with the client on the calls' thread. */
    @FunctionalInterface
    public interface Call<T> {
        T call(BrokerClient client) throws IOException;
    }

    /** @param name what the calls serve, as a call after {@link #close} is told ("controller channel" closed) */
    public SerialBrokerCalls(String name, String threadName, BrokerClient client) {
        this.name = name;
        this.client = client;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Runs {@code call} on the calls' thread; after {@link #close} the future fails at once with an IOException naming
     * what closed.
     */
    public <T> CompletableFuture<T> submit(Call<T> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            thread.execute(() -> {
                try {
                    result.complete(call.call(client));
                } catch (IOException | RuntimeException e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new IOException(name + " closed"));
        }
        return result;
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
    }
}
