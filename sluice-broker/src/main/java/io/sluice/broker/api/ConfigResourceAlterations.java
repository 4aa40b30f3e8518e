package io.sluice.broker.api;

import io.sluice.broker.interbroker.ControllerChannel;
import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.controller.ConfigChange;
import io.sluice.cluster.controller.ConfigOperation;
import io.sluice.cluster.controller.ConfigResource;
import io.sluice.cluster.controller.ConfigSchema;
import io.sluice.cluster.node.ClusterNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.Readable;

/**
 * What AlterConfigs and IncrementalAlterConfigs do alike with each resource of a request: answer INVALID_REQUEST for
 * one the handler refused (a resource type other than topic and broker, or an operation Kafka does not define), check
 * the client may alter it, hand the rest to the controller as {@link ConfigChange}s ({@link ConfigAlterations}), and
 * write one response row per resource. The two APIs differ only in what they hand in: AlterConfigs' SETs replace the
 * resource's whole dynamic configuration, IncrementalAlterConfigs' operations apply key by key.
 *
 * <p>Thread-safe (stateless past construction).
 */
final class ConfigResourceAlterations {
    /** Kafka's id of the topic resource type ({@code ConfigResource.Type.TOPIC.id()}). */
    static final byte TOPIC = 2;

    /** Kafka's id of the broker resource type ({@code ConfigResource.Type.BROKER.id()}). */
    static final byte BROKER = 4;

    /**
     * One resource of a request as the handler read it: Kafka's type id and the name, and either why it is refused
     * (then {@code operations} is empty) or null and its operations.
     */
    record Requested(byte type, String name, String refusal, List<ConfigOperation> operations) {}

    /**
     * How one of the two APIs carries changes to the controller and reads its answers: {@code request} builds the
     * forwarded request of changes (and validateOnly), {@code outcomes} reads the response at the request's version.
     */
    record Wire(
            ApiKeys api,
            BiFunction<List<ConfigChange>, Boolean, ApiMessage> request,
            BiFunction<Readable, Short, List<ConfigAlterations.Outcome>> outcomes) {}

    /** Adds one row to the API's own response. */
    interface ResponseRows {
        void add(byte type, String name, short errorCode, String message);
    }

    private final ConfigAlterations alterations;
    private final ControllerChannel controller;
    private final boolean replace;
    private final Wire wire;

    private ConfigResourceAlterations(
            ConfigAlterations alterations, ControllerChannel controller, boolean replace, Wire wire) {
        this.alterations = alterations;
        this.controller = controller;
        this.replace = replace;
        this.wire = wire;
    }

    /**
     * The alterations of one API on a broker: changes run on {@code node}'s controller or are forwarded over
     * {@code controller} as {@code wire} says; {@code replace} when the operations of a resource are its whole dynamic
     * configuration (AlterConfigs), not changes key by key (IncrementalAlterConfigs).
     */
    static ConfigResourceAlterations of(
            Supplier<ClusterNode> node,
            ConfigSchema schema,
            int selfId,
            ControllerChannel controller,
            boolean replace,
            Wire wire) {
        return new ConfigResourceAlterations(
                new ConfigAlterations(node, schema, selfId, controller.forwarding()), controller, replace, wire);
    }

    /**
     * Answers every resource of {@code requested} through {@code rows}: the refused and the denied at once, in request
     * order, then the others as {@link ConfigAlterations#alter} decides them. Completes when every row is written.
     */
    CompletableFuture<Void> alter(
            RequestContext context, List<Requested> requested, boolean validateOnly, ResponseRows rows) {
        List<ConfigChange> changes = new ArrayList<>();
        for (Requested r : requested) {
            if (r.refusal() != null) {
                rows.add(r.type(), r.name(), Errors.INVALID_REQUEST.code(), r.refusal());
                continue;
            }
            Errors denied = ConfigAlterations.alterError(context, r.type(), r.name());
            if (denied != null) {
                rows.add(r.type(), r.name(), denied.code(), null);
                continue;
            }
            changes.add(new ConfigChange(resource(r.type(), r.name()), r.operations(), replace));
        }
        short version = context.apiVersion();
        ConfigAlterations.Forwarder forwarder = (forward, forwardValidateOnly) -> controller.send(
                wire.api(),
                version,
                wire.request().apply(forward, forwardValidateOnly),
                readable -> wire.outcomes().apply(readable, version));
        return alterations.alter(context, changes, validateOnly, forwarder).thenAccept(outcomes -> {
            for (ConfigAlterations.Outcome o : outcomes) {
                rows.add(typeId(o.resource()), o.resource().name(), o.errorCode(), o.message());
            }
        });
    }

    /** Why a resource of Kafka's type id {@code type} cannot be altered, or null for a topic or a broker. */
    static String unsupportedType(byte type) {
        if (type != TOPIC && type != BROKER) {
            return "Unsupported resource type " + type
                    + "; only topics (2) and brokers (4) have dynamic configurations";
        }
        return null;
    }

    /** The resource of Kafka's type id {@code type}: a topic for {@link #TOPIC}, else a broker. */
    static ConfigResource resource(byte type, String name) {
        return new ConfigResource(type == TOPIC ? ConfigResource.Type.TOPIC : ConfigResource.Type.BROKER, name);
    }

    /** Kafka's type id of {@code resource}. */
    static byte typeId(ConfigResource resource) {
        return resource.type() == ConfigResource.Type.TOPIC ? TOPIC : BROKER;
    }
}
