package io.sluice.broker.topic;

import io.sluice.cluster.controller.ControllerFencedException;
import io.sluice.cluster.controller.InvalidAssignmentRequestException;
import io.sluice.cluster.controller.NotControllerException;
import io.sluice.cluster.controller.TopicExistsException;
import io.sluice.cluster.controller.UnknownTopicException;
import io.sluice.cluster.zk.ZooKeeperFailures;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.protocol.Errors;

/**
 * Waits for an operation of the controller and turns its failure into the Kafka error a client expects: a moved or
 * fenced controller NOT_CONTROLLER, a taken name TOPIC_ALREADY_EXISTS, an unknown topic UNKNOWN_TOPIC_OR_PARTITION, a
 * refused assignment its own code, ZooKeeper trouble and time running out REQUEST_TIMED_OUT (the client retries).
 *
 * <p>Stateless; thread-safe.
 */
public final class ControllerAnswer {
    private ControllerAnswer() {}

    /** The operation's result, waiting at most {@code waitMs}; {@code what} names it in messages ("create topic 'x'"). */
    public static <T> T await(CompletableFuture<T> future, String what, long waitMs) throws TopicException {
        try {
            return future.get(waitMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw refusal(e.getCause(), what);
        } catch (TimeoutException e) {
            throw new TopicException(
                    Errors.REQUEST_TIMED_OUT, "The controller did not " + what + " within " + waitMs + " ms.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopicException(Errors.REQUEST_TIMED_OUT, "Interrupted while waiting to " + what + ".");
        }
    }

    private static TopicException refusal(Throwable cause, String what) {
        if (cause instanceof NotControllerException || cause instanceof ControllerFencedException) {
            return new TopicException(Errors.NOT_CONTROLLER, "Cannot " + what + ": " + cause.getMessage());
        }
        if (cause instanceof TopicExistsException) {
            return new TopicException(Errors.TOPIC_ALREADY_EXISTS, "Cannot " + what + ": " + cause.getMessage());
        }
        if (cause instanceof UnknownTopicException) {
            return new TopicException(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Cannot " + what + ": " + cause.getMessage());
        }
        if (cause instanceof InvalidAssignmentRequestException refused) {
            return new TopicException(Errors.forCode(refused.error().kafkaCode()), refused.getMessage());
        }
        if (ZooKeeperFailures.isZooKeeperFailure(cause)) {
            // ZooKeeper unreachable or the session lost mid-write: the client retries.
            return new TopicException(Errors.REQUEST_TIMED_OUT, "Cannot " + what + " now: " + cause.getMessage());
        }
        return new TopicException(Errors.UNKNOWN_SERVER_ERROR, "Cannot " + what + ": " + cause);
    }
}
