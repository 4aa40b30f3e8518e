package io.sluice.broker.produce;

import io.sluice.broker.topic.Partition;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.protocol.Errors;

/**
 * An acks=all append waiting until every ISR member holds it: completes with NONE once the high watermark passes its
 * last offset (NOT_ENOUGH_REPLICAS_AFTER_APPEND when by then fewer than min.insync.replicas are in sync, as Kafka
 * answers), with NOT_LEADER_OR_FOLLOWER when this broker stops leading the partition (a new leader epoch while it
 * goes on leading does not fail it, as in Kafka: a leader never truncates, so the append is still there), and with
 * REQUEST_TIMED_OUT after the produce request's timeout. The records stay in the log whatever the answer: an
 * idempotent producer's retry is recognized as a duplicate.
 *
 * The group coordinator's writes to {@code __consumer_offsets} wait the same way.
 *
 * <p>Thread-safe: high-watermark moves, role changes and the timer may race; the first to complete wins. The future
 * completes on whichever thread decided it (a request thread, the timer, the thread applying a role change, possibly
 * holding the partition's monitor), so its dependents must not block or take locks a partition holder may wait for.
 */
public final class DelayedProduce implements Partition.AppendWaiter {
    private final Partition partition;
    private final long requiredOffset;
    private final int leaderEpoch;
    private final int minInsyncReplicas;
    private final AtomicBoolean completed = new AtomicBoolean();
    private final CompletableFuture<Errors> future = new CompletableFuture<>();
    private volatile ScheduledFuture<?> timeout;

    /** @param requiredOffset the high watermark that acknowledges the append: its last offset + 1 */
    public DelayedProduce(Partition partition, long requiredOffset, int leaderEpoch, int minInsyncReplicas) {
        this.partition = partition;
        this.requiredOffset = requiredOffset;
        this.leaderEpoch = leaderEpoch;
        this.minInsyncReplicas = minInsyncReplicas;
    }

    public CompletableFuture<Errors> start(ScheduledExecutorService timer, long timeoutMs) {
        partition.addWaiter(this);
        timeout =
                timer.schedule(() -> complete(Errors.REQUEST_TIMED_OUT), Math.max(0, timeoutMs), TimeUnit.MILLISECONDS);
        onAppend();
        return future;
    }

    /** Only the high watermark (or a role change) completes it. */
    @Override
    public boolean wakesOnAppend() {
        return false;
    }

    @Override
    public void onAppend() {
        if (completed.get()) {
            return;
        }
        if (!partition.isLeader() || partition.leadingSinceEpoch() > leaderEpoch) {
            complete(Errors.NOT_LEADER_OR_FOLLOWER);
        } else if (partition.highWatermark() >= requiredOffset) {
            complete(
                    partition.inSyncReplicaCount() < minInsyncReplicas
                            ? Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND
                            : Errors.NONE);
        }
    }

    private void complete(Errors error) {
        if (!completed.compareAndSet(false, true)) {
            return;
        }
        partition.removeWaiter(this);
        ScheduledFuture<?> pending = timeout;
        if (pending != null) {
            pending.cancel(false);
        }
        future.complete(error);
    }
}
