package io.sluice.broker.api;

import io.sluice.broker.interbroker.ControllerChannel;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.controller.ConfigChange;
import io.sluice.cluster.controller.ConfigOperation;
import io.sluice.cluster.controller.ConfigResource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * IncrementalAlterConfigs (KIP-339; {@code kafka-configs.sh --alter}, {@code Admin.incrementalAlterConfigs}, and
 * {@code kafka-reassign-partitions.sh} setting and clearing throttles): SET, DELETE, APPEND and SUBTRACT on topics,
 * brokers and the cluster default, decided by the controller ({@link ConfigAlterations}). Resource types other than
 * topics and brokers, and unknown operations, are refused with INVALID_REQUEST.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class IncrementalAlterConfigsHandler implements ApiHandler<IncrementalAlterConfigsRequestData> {
    private static final byte TOPIC = 2;
    private static final byte BROKER = 4;

    private final ConfigAlterations alterations;
    private final ControllerChannel controller;

    IncrementalAlterConfigsHandler(ConfigAlterations alterations, ControllerChannel controller) {
        this.alterations = alterations;
        this.controller = controller;
    }

    /** The handler of a broker: changes run on {@code node}'s controller or are forwarded over {@code controller}. */
    public static IncrementalAlterConfigsHandler of(
            java.util.function.Supplier<io.sluice.cluster.node.ClusterNode> node,
            io.sluice.cluster.controller.ConfigSchema schema,
            int selfId,
            ControllerChannel controller) {
        return new IncrementalAlterConfigsHandler(
                new ConfigAlterations(node, schema, selfId, controller.forwarding()), controller);
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, IncrementalAlterConfigsRequestData request) {
        IncrementalAlterConfigsResponseData response = new IncrementalAlterConfigsResponseData();
        List<ConfigChange> changes = new ArrayList<>();
        for (AlterConfigsResource resource : request.resources()) {
            String refusal = refusal(resource);
            if (refusal != null) {
                response.responses()
                        .add(row(
                                resource.resourceType(),
                                resource.resourceName(),
                                Errors.INVALID_REQUEST.code(),
                                refusal));
                continue;
            }
            Errors denied = ConfigAlterations.alterError(context, resource.resourceType(), resource.resourceName());
            if (denied != null) {
                response.responses().add(row(resource.resourceType(), resource.resourceName(), denied.code(), null));
                continue;
            }
            List<ConfigOperation> ops = new ArrayList<>();
            for (AlterableConfig c : resource.configs()) {
                ops.add(new ConfigOperation(operationType(c.configOperation()), c.name(), c.value()));
            }
            changes.add(new ConfigChange(
                    new ConfigResource(
                            resource.resourceType() == TOPIC ? ConfigResource.Type.TOPIC : ConfigResource.Type.BROKER,
                            resource.resourceName()),
                    ops,
                    false));
        }
        short version = context.apiVersion();
        return alterations
                .alter(
                        context,
                        changes,
                        request.validateOnly(),
                        (forward, validateOnly) -> controller.send(
                                ApiKeys.INCREMENTAL_ALTER_CONFIGS,
                                version,
                                toRequest(forward, validateOnly),
                                readable -> fromResponse(new IncrementalAlterConfigsResponseData(readable, version))))
                .thenApply(outcomes -> {
                    for (ConfigAlterations.Outcome o : outcomes) {
                        response.responses()
                                .add(row(typeId(o.resource()), o.resource().name(), o.errorCode(), o.message()));
                    }
                    return response;
                });
    }

    private static String refusal(AlterConfigsResource resource) {
        if (resource.resourceType() != TOPIC && resource.resourceType() != BROKER) {
            return "Unsupported resource type " + resource.resourceType()
                    + "; only topics (2) and brokers (4) have dynamic configurations";
        }
        for (AlterableConfig c : resource.configs()) {
            if (operationType(c.configOperation()) == null) {
                return "Unknown config operation " + c.configOperation() + " for configuration '" + c.name() + "'";
            }
        }
        return null;
    }

    static IncrementalAlterConfigsRequestData toRequest(List<ConfigChange> changes, boolean validateOnly) {
        IncrementalAlterConfigsRequestData data =
                new IncrementalAlterConfigsRequestData().setValidateOnly(validateOnly);
        for (ConfigChange change : changes) {
            AlterConfigsResource resource = new AlterConfigsResource()
                    .setResourceType(typeId(change.resource()))
                    .setResourceName(change.resource().name());
            for (ConfigOperation op : change.operations()) {
                resource.configs()
                        .add(new AlterableConfig()
                                .setName(op.key())
                                .setConfigOperation(operationId(op.type()))
                                .setValue(op.value()));
            }
            data.resources().add(resource);
        }
        return data;
    }

    private static List<ConfigAlterations.Outcome> fromResponse(IncrementalAlterConfigsResponseData data) {
        List<ConfigAlterations.Outcome> out = new ArrayList<>();
        for (AlterConfigsResourceResponse r : data.responses()) {
            out.add(new ConfigAlterations.Outcome(
                    new ConfigResource(
                            r.resourceType() == TOPIC ? ConfigResource.Type.TOPIC : ConfigResource.Type.BROKER,
                            r.resourceName()),
                    r.errorCode(),
                    r.errorMessage()));
        }
        return out;
    }

    /** Kafka's id of {@code type} on the wire ({@code AlterConfigOp.OpType#id}): SET 0, DELETE 1, APPEND 2, SUBTRACT 3. */
    static byte operationId(ConfigOperation.Type type) {
        return switch (type) {
            case SET -> 0;
            case DELETE -> 1;
            case APPEND -> 2;
            case SUBTRACT -> 3;
        };
    }

    /** The operation of Kafka's wire id {@code id} ({@code AlterConfigOp.OpType.forId}), or null for any other id. */
    static ConfigOperation.Type operationType(byte id) {
        return switch (id) {
            case 0 -> ConfigOperation.Type.SET;
            case 1 -> ConfigOperation.Type.DELETE;
            case 2 -> ConfigOperation.Type.APPEND;
            case 3 -> ConfigOperation.Type.SUBTRACT;
            default -> null;
        };
    }

    static byte typeId(ConfigResource resource) {
        return resource.type() == ConfigResource.Type.TOPIC ? TOPIC : BROKER;
    }

    private static AlterConfigsResourceResponse row(byte type, String name, short error, String message) {
        return new AlterConfigsResourceResponse()
                .setResourceType(type)
                .setResourceName(name)
                .setErrorCode(error)
                .setErrorMessage(message);
    }
}
