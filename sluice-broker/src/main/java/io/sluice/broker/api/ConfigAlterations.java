package io.sluice.broker.api;

import io.sluice.broker.config.ForwardingConfig;
import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.controller.ConfigChange;
import io.sluice.cluster.controller.ConfigChangeResult;
import io.sluice.cluster.controller.ConfigResource;
import io.sluice.cluster.controller.ConfigSchema;
import io.sluice.cluster.controller.ControllerFencedException;
import io.sluice.cluster.controller.NotControllerException;
import io.sluice.cluster.node.ClusterNode;
import io.sluice.cluster.zk.ZooKeeperFailures;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * What IncrementalAlterConfigs and AlterConfigs share: Kafka's checks on the receiving broker (a resource named
 * twice, a broker resource that names another broker), then the change on the controller: here when this broker is
 * the controller, else forwarded to it over the Kafka protocol (Kafka's admin client sends topic and cluster-default
 * changes to any broker and a broker's own change to that broker, and does not retry NOT_CONTROLLER for these APIs).
 * A forward that finds no controller, or a controller that lost its term, is retried for {@link ForwardingConfig#waitMs()}.
 *
 * <p>Thread-safe (stateless past construction).
 */
final class ConfigAlterations {
    /** The client id prefix and suffix of {@link io.sluice.broker.interbroker.ControllerChannel}'s requests. */
    private static final String BROKER_CLIENT_PREFIX = "sluice-broker-";

    private static final String BROKER_CLIENT_SUFFIX = "-to-controller";

    /** Sends changes to the controller in the handler's own API and reads the outcomes back. */
    interface Forwarder {
        CompletableFuture<List<Outcome>> forward(List<ConfigChange> changes, boolean validateOnly);
    }

    /** The answer for one resource. */
    record Outcome(ConfigResource resource, short errorCode, String message) {
        static Outcome of(ConfigResource resource, Errors error, String message) {
            return new Outcome(resource, error.code(), message);
        }
    }

    private final Supplier<ClusterNode> node;
    private final ConfigSchema schema;
    private final int selfId;
    private final ForwardingConfig forwarding;

    ConfigAlterations(Supplier<ClusterNode> node, ConfigSchema schema, int selfId, ForwardingConfig forwarding) {
        this.forwarding = forwarding;
        this.node = node;
        this.schema = schema;
        this.selfId = selfId;
    }

    /**
     * Applies {@code changes} (with {@code refused} already answered by the handler) and completes with one outcome
     * per resource: refused ones first checked here, the rest as the controller answered.
     */
    CompletableFuture<List<Outcome>> alter(
            RequestContext context, List<ConfigChange> changes, boolean validateOnly, Forwarder forwarder) {
        boolean fromBroker = isForwarded(context);
        Set<ConfigResource> seen = new HashSet<>();
        Set<ConfigResource> twice = new HashSet<>();
        for (ConfigChange c : changes) {
            if (!seen.add(c.resource())) {
                twice.add(c.resource());
            }
        }
        Map<ConfigResource, Outcome> local = new HashMap<>();
        List<ConfigChange> accepted = new ArrayList<>();
        for (ConfigChange c : changes) {
            ConfigResource r = c.resource();
            if (twice.contains(r)) {
                local.put(
                        r,
                        Outcome.of(
                                r,
                                Errors.INVALID_REQUEST,
                                "Error due to duplicate resources: " + r + " is named more than once"));
            } else if (!fromBroker
                    && r.type() == ConfigResource.Type.BROKER
                    && !r.name().isEmpty()
                    && !r.name().equals(Integer.toString(selfId))) {
                local.put(
                        r,
                        Outcome.of(
                                r,
                                Errors.INVALID_REQUEST,
                                "Unexpected broker id, expected " + selfId + " or empty string, but received "
                                        + r.name()));
            } else {
                accepted.add(c);
            }
        }
        CompletableFuture<List<Outcome>> remote = accepted.isEmpty()
                ? CompletableFuture.completedFuture(List.of())
                : attempt(
                        accepted,
                        validateOnly,
                        forwarder,
                        fromBroker,
                        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(forwarding.waitMs()));
        return remote.thenApply(outcomes -> {
            Map<ConfigResource, Outcome> byResource = new HashMap<>(local);
            for (Outcome o : outcomes) {
                byResource.putIfAbsent(o.resource(), o);
            }
            List<Outcome> ordered = new ArrayList<>(changes.size());
            Set<ConfigResource> answered = new HashSet<>();
            for (ConfigChange c : changes) {
                if (answered.add(c.resource())) {
                    Outcome o = byResource.get(c.resource());
                    ordered.add(
                            o != null
                                    ? o
                                    : Outcome.of(
                                            c.resource(),
                                            Errors.UNKNOWN_SERVER_ERROR,
                                            "The controller did not answer for " + c.resource()));
                }
            }
            return ordered;
        });
    }

    private CompletableFuture<List<Outcome>> attempt(
            List<ConfigChange> changes,
            boolean validateOnly,
            Forwarder forwarder,
            boolean fromBroker,
            long deadlineNanos) {
        ClusterNode n = node.get();
        CompletableFuture<List<Outcome>> tried;
        if (n != null && n.isController()) {
            tried = n.alterConfigs(changes, schema, validateOnly)
                    .handle((results, failure) -> failure == null ? outcomes(results) : failed(changes, failure));
        } else if (fromBroker) {
            // A forward that reached a broker that is no longer the controller: the sender retries.
            tried = CompletableFuture.completedFuture(
                    failed(changes, new NotControllerException(selfId, "alterConfigs")));
        } else {
            tried = forwarder.forward(changes, validateOnly).exceptionally(failure -> failed(changes, failure));
        }
        return tried.thenCompose(outcomes -> {
            boolean retriable =
                    !fromBroker && outcomes.stream().anyMatch(o -> o.errorCode() == Errors.NOT_CONTROLLER.code());
            if (!retriable || System.nanoTime() - deadlineNanos >= 0) {
                return CompletableFuture.completedFuture(outcomes);
            }
            return CompletableFuture.supplyAsync(
                            () -> null,
                            CompletableFuture.delayedExecutor(forwarding.retryBackoffMs(), TimeUnit.MILLISECONDS))
                    .thenCompose(ignored -> attempt(changes, validateOnly, forwarder, false, deadlineNanos));
        });
    }

    private static List<Outcome> outcomes(List<ConfigChangeResult> results) {
        List<Outcome> out = new ArrayList<>(results.size());
        for (ConfigChangeResult r : results) {
            out.add(new Outcome(r.resource(), r.error().kafkaCode(), r.message()));
        }
        return out;
    }

    /** Every change answered with the error {@code failure} means to a Kafka client. */
    private static List<Outcome> failed(List<ConfigChange> changes, Throwable failure) {
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        Errors error;
        if (cause instanceof NotControllerException
                || cause instanceof ControllerFencedException
                || cause instanceof java.io.IOException) {
            error = Errors.NOT_CONTROLLER;
        } else if (ZooKeeperFailures.isZooKeeperFailure(cause)) {
            error = Errors.REQUEST_TIMED_OUT;
        } else {
            error = Errors.UNKNOWN_SERVER_ERROR;
        }
        List<Outcome> out = new ArrayList<>(changes.size());
        for (ConfigChange c : changes) {
            out.add(Outcome.of(
                    c.resource(),
                    error,
                    "Cannot alter the configuration of " + c.resource() + ": " + cause.getMessage()));
        }
        return out;
    }

    /**
     * Kafka's check on a configuration resource: {@code operation} (DescribeConfigs or AlterConfigs) on the topic, or
     * on the cluster for a broker or the cluster default. Null when allowed, else the error the client expects.
     */
    static Errors accessError(RequestContext context, boolean topic, String name, AclOperation operation) {
        if (topic) {
            return context.authorize(operation, ResourceType.TOPIC, name) ? null : Errors.TOPIC_AUTHORIZATION_FAILED;
        }
        return context.authorizeCluster(operation) ? null : Errors.CLUSTER_AUTHORIZATION_FAILED;
    }

    /** {@link #accessError} for AlterConfigs and IncrementalAlterConfigs on a resource of Kafka's type id. */
    static Errors alterError(RequestContext context, byte resourceType, String name) {
        return accessError(
                context,
                resourceType == org.apache.kafka.common.config.ConfigResource.Type.TOPIC.id(),
                name,
                AclOperation.ALTER_CONFIGS);
    }

    /** Whether the request came from another broker's controller channel (its checks are already done). */
    static boolean isForwarded(RequestContext context) {
        String clientId = context.clientId();
        return clientId.startsWith(BROKER_CLIENT_PREFIX) && clientId.endsWith(BROKER_CLIENT_SUFFIX);
    }
}
