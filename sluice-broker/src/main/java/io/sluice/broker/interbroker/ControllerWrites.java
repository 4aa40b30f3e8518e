package io.sluice.broker.interbroker;

import io.sluice.cluster.controller.ControllerFencedException;
import io.sluice.cluster.controller.NotControllerException;
import io.sluice.cluster.node.ClusterNode;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Readable;

/**
 * Where the security writes (CreateAcls, DeleteAcls, AlterUserScramCredentials) are decided: on this broker's controller
 * when it is the active one, else forwarded
 * unchanged (same API, same version) to the active controller over the {@link ControllerChannel}, which logs in as
 * this broker (a super user when ACLs are on). A forward that finds no controller, or one that lost its term, is
 * retried for the channel's {@link ControllerChannel#forwarding() forwarding wait}, then answered with the request's error response.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class ControllerWrites {
    private final Supplier<ClusterNode> node;
    private final ControllerChannel controller;

    public ControllerWrites(Supplier<ClusterNode> node, ControllerChannel controller) {
        this.node = node;
        this.controller = controller;
    }

    /**
     * Runs {@code change} on this broker's active controller, or forwards {@code request} to the active controller; a
     * failure that outlives the wait completes with {@code failed} applied to it.
     */
    public <T extends ApiMessage> CompletableFuture<T> write(
            Function<ClusterNode, CompletableFuture<T>> change,
            ApiKeys api,
            short version,
            ApiMessage request,
            Function<Readable, T> parser,
            Function<Throwable, T> failed) {
        return attempt(
                change,
                api,
                version,
                request,
                parser,
                failed,
                System.nanoTime()
                        + TimeUnit.MILLISECONDS.toNanos(controller.forwarding().waitMs()));
    }

    private <T extends ApiMessage> CompletableFuture<T> attempt(
            Function<ClusterNode, CompletableFuture<T>> change,
            ApiKeys api,
            short version,
            ApiMessage request,
            Function<Readable, T> parser,
            Function<Throwable, T> failed,
            long deadlineNanos) {
        ClusterNode n = node.get();
        CompletableFuture<T> tried =
                n != null && n.isController() ? change.apply(n) : controller.send(api, version, request, parser);
        return tried.exceptionallyCompose(failure -> {
            Throwable cause =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            boolean retriable = cause instanceof NotControllerException
                    || cause instanceof ControllerFencedException
                    || cause instanceof IOException;
            if (!retriable || System.nanoTime() - deadlineNanos >= 0) {
                return CompletableFuture.completedFuture(failed.apply(cause));
            }
            return CompletableFuture.supplyAsync(
                            () -> null,
                            CompletableFuture.delayedExecutor(
                                    controller.forwarding().retryBackoffMs(), TimeUnit.MILLISECONDS))
                    .thenCompose(ignored -> attempt(change, api, version, request, parser, failed, deadlineNanos));
        });
    }
}
