package io.sluice.broker.replica;

import io.sluice.broker.config.ReplicaConfig;
import io.sluice.broker.interbroker.ControllerChannel;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.kafka.common.message.ControlledShutdownRequestData;
import org.apache.kafka.common.message.ControlledShutdownResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stopping broker's request that the controller move every leadership it holds first (Kafka's ControlledShutdown),
 * so producers and consumers switch to the new leaders before this broker's partitions go quiet. Tried up to
 * {@code controlled.shutdown.max.retries} more times while partitions remain or the controller cannot be reached;
 * each attempt and the whole are bounded, and nothing is tried while ZooKeeper is unreachable, so a broker stops in
 * bounded time even with no controller or no ZooKeeper.
 *
 * <p>Not thread-safe; run once by the closing thread.
 */
public final class ControlledShutdown {
    private static final Logger LOG = LoggerFactory.getLogger(ControlledShutdown.class);
    private static final short VERSION = 3;
    /** Bound on one attempt: the controller publishes one delta, a matter of milliseconds when healthy. */
    private static final long ATTEMPT_TIMEOUT_MS = 5_000;
    /** Bound on all attempts together, whatever the retry settings: a stopping broker must stop. */
    private static final long TOTAL_TIMEOUT_MS = 15_000;

    private final int brokerId;
    private final ReplicaConfig config;
    private final ControllerChannel controller;
    private final BooleanSupplier zooKeeperConnected;
    private final LongSupplier brokerEpoch;

    /**
     * @param zooKeeperConnected whether this broker reaches ZooKeeper now: without it no controller can publish the
     *                           move, so no attempt is made (the controller moves leaderships once the session expires)
     * @param brokerEpoch        this broker's registration epoch, sent with each attempt so the controller can refuse
     *                           one that arrives after this broker registered again (-1: unknown)
     */
    public ControlledShutdown(
            int brokerId,
            ReplicaConfig config,
            ControllerChannel controller,
            BooleanSupplier zooKeeperConnected,
            LongSupplier brokerEpoch) {
        this.brokerId = brokerId;
        this.config = config;
        this.controller = controller;
        this.zooKeeperConnected = zooKeeperConnected;
        this.brokerEpoch = brokerEpoch;
    }

    /** @return whether the controller moved every leadership away */
    public boolean run() {
        long started = System.nanoTime();
        long deadline = started + TimeUnit.MILLISECONDS.toNanos(TOTAL_TIMEOUT_MS);
        for (int attempt = 0; attempt <= config.controlledShutdownMaxRetries(); attempt++) {
            if (!zooKeeperConnected.getAsBoolean()) {
                LOG.warn(
                        "broker {}: ZooKeeper unreachable; stopping without a controlled shutdown (the controller "
                                + "moves this broker's leaderships once its session expires)",
                        brokerId);
                return false;
            }
            if (attempt > 0 && !pause(Math.min(config.controlledShutdownRetryBackoffMs(), leftMs(deadline)))) {
                return false;
            }
            long bound = Math.min(ATTEMPT_TIMEOUT_MS, leftMs(deadline));
            if (bound <= 0) {
                break;
            }
            try {
                ControlledShutdownResponseData answer = controller
                        .send(
                                ApiKeys.CONTROLLED_SHUTDOWN,
                                VERSION,
                                new ControlledShutdownRequestData()
                                        .setBrokerId(brokerId)
                                        .setBrokerEpoch(brokerEpoch.getAsLong()),
                                readable -> new ControlledShutdownResponseData(readable, VERSION))
                        .get(bound, TimeUnit.MILLISECONDS);
                Errors error = Errors.forCode(answer.errorCode());
                if (error == Errors.NONE && answer.remainingPartitions().isEmpty()) {
                    LOG.info(
                            "broker {}: controlled shutdown moved every leadership in {} ms",
                            brokerId,
                            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
                    return true;
                }
                LOG.info(
                        "broker {}: controlled shutdown attempt {} answered {} with {} partitions still led here",
                        brokerId,
                        attempt + 1,
                        error,
                        answer.remainingPartitions().size());
            } catch (ExecutionException | TimeoutException e) {
                LOG.info(
                        "broker {}: controlled shutdown attempt {} failed: {}",
                        brokerId,
                        attempt + 1,
                        e instanceof ExecutionException ? e.getCause().getMessage() : "no answer in " + bound + " ms");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        LOG.warn("broker {}: stopping without a complete controlled shutdown", brokerId);
        return false;
    }

    private static long leftMs(long deadlineNanos) {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }

    private static boolean pause(long ms) {
        try {
            Thread.sleep(ms);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
