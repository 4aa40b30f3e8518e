package io.sluice.broker.fetch;

import io.sluice.broker.topic.Partition;
import io.sluice.broker.topic.TopicManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.protocol.ApiMessage;

/**
 * A long-poll fetch parked until its partitions hold min_bytes of new data or max_wait_ms passes,
 * whichever comes first. Appends wake it on the appending thread; it completes exactly once and
 * then unregisters from every partition. A read that throws fails the fetch (its connection is closed, as for any
 * handler failure) rather than leaving it unanswered or throwing into the appending thread.
 *
 * <p>Thread-safe: appends and the timer may race; the first to complete wins.
 */
final class DelayedFetch implements Partition.AppendWaiter {
    /** One read of the fetch's partitions: {@link FetchReader#read} without the first-arrival flag. */
    interface Reads {
        FetchReader.Result read();
    }

    private final Reads reader;
    private final int minBytes;
    private final int maxWaitMs;
    private final ScheduledExecutorService timer;
    private final List<Partition> watched = new ArrayList<>();
    private final AtomicBoolean completed = new AtomicBoolean();
    private final CompletableFuture<ApiMessage> future = new CompletableFuture<>();
    private volatile ScheduledFuture<?> timeout;
    private final boolean fromFollower;

    DelayedFetch(
            TopicManager topics,
            Reads reader,
            List<FetchTarget> targets,
            int minBytes,
            int maxWaitMs,
            ScheduledExecutorService timer,
            boolean fromFollower) {
        this.fromFollower = fromFollower;
        this.reader = reader;
        this.minBytes = minBytes;
        this.maxWaitMs = maxWaitMs;
        this.timer = timer;
        for (FetchTarget target : targets) {
            Partition partition = topics.partition(target.topic(), target.partition());
            if (partition != null) {
                watched.add(partition);
            }
        }
    }

    CompletableFuture<ApiMessage> start() {
        for (Partition partition : watched) {
            partition.addWaiter(this);
        }
        timeout = timer.schedule(this::expire, maxWaitMs, TimeUnit.MILLISECONDS);
        onAppend();
        return future;
    }

    /** A follower reads up to the log end: new data completes it. */
    @Override
    public boolean wakesOnAppend() {
        return fromFollower;
    }

    /** A consumer reads below the high watermark: only its moves bring new data. */
    @Override
    public boolean wakesOnHighWatermark() {
        return !fromFollower;
    }

    @Override
    public void onAppend() {
        if (completed.get()) {
            return;
        }
        FetchReader.Result result;
        try {
            result = reader.read();
        } catch (RuntimeException e) {
            fail(e);
            return;
        }
        if (result.bytes() >= minBytes || result.hasError()) {
            complete(result);
        }
    }

    private void expire() {
        if (completed.get()) {
            return;
        }
        try {
            complete(reader.read());
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    private void complete(FetchReader.Result result) {
        if (finish()) {
            future.complete(result.response());
        }
    }

    private void fail(RuntimeException e) {
        if (finish()) {
            future.completeExceptionally(e);
        }
    }

    /** Unregisters and stops the timer, once: true for the caller that finishes the fetch. */
    private boolean finish() {
        if (!completed.compareAndSet(false, true)) {
            return false;
        }
        for (Partition partition : watched) {
            partition.removeWaiter(this);
        }
        ScheduledFuture<?> pending = timeout;
        if (pending != null) {
            pending.cancel(false);
        }
        return true;
    }
}
