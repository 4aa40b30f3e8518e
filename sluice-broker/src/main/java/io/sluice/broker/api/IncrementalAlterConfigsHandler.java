package io.sluice.broker.api;

import io.sluice.broker.interbroker.ControllerChannel;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.controller.ConfigChange;
import io.sluice.cluster.controller.ConfigOperation;
import io.sluice.cluster.controller.ConfigSchema;
import io.sluice.cluster.node.ClusterNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;

/**
 * IncrementalAlterConfigs (KIP-339; {@code kafka-configs.sh --alter}, {@code Admin.incrementalAlterConfigs}, and
 * {@code kafka-reassign-partitions.sh} setting and clearing throttles): SET, DELETE, APPEND and SUBTRACT on topics,
 * brokers and the cluster default, decided by the controller ({@link ConfigAlterations}). Resource types other than
 * topics and brokers, and unknown operations, are refused with INVALID_REQUEST.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class IncrementalAlterConfigsHandler implements ApiHandler<IncrementalAlterConfigsRequestData> {
    private final ConfigResourceAlterations alterations;

    private IncrementalAlterConfigsHandler(ConfigResourceAlterations alterations) {
        this.alterations = alterations;
    }

    /** The handler of a broker: changes run on {@code node}'s controller or are forwarded over {@code controller}. */
    public static IncrementalAlterConfigsHandler of(
            Supplier<ClusterNode> node, ConfigSchema schema, int selfId, ControllerChannel controller) {
        return new IncrementalAlterConfigsHandler(ConfigResourceAlterations.of(
                node,
                schema,
                selfId,
                controller,
                false,
                new ConfigResourceAlterations.Wire(
                        ApiKeys.INCREMENTAL_ALTER_CONFIGS,
                        IncrementalAlterConfigsHandler::toRequest,
                        (readable, version) ->
                                fromResponse(new IncrementalAlterConfigsResponseData(readable, version)))));
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, IncrementalAlterConfigsRequestData request) {
        List<ConfigResourceAlterations.Requested> requested = new ArrayList<>();
        for (AlterConfigsResource resource : request.resources()) {
            String refusal = refusal(resource);
            requested.add(new ConfigResourceAlterations.Requested(
                    resource.resourceType(),
                    resource.resourceName(),
                    refusal,
                    refusal == null ? operations(resource) : List.of()));
        }
        IncrementalAlterConfigsResponseData response = new IncrementalAlterConfigsResponseData();
        return alterations
                .alter(
                        context,
                        requested,
                        request.validateOnly(),
                        (type, name, error, message) -> response.responses()
                                .add(new AlterConfigsResourceResponse()
                                        .setResourceType(type)
                                        .setResourceName(name)
                                        .setErrorCode(error)
                                        .setErrorMessage(message)))
                .thenApply(written -> response);
    }

    private static String refusal(AlterConfigsResource resource) {
        String unsupported = ConfigResourceAlterations.unsupportedType(resource.resourceType());
        if (unsupported != null) {
            return unsupported;
        }
        for (AlterableConfig c : resource.configs()) {
            if (operationType(c.configOperation()) == null) {
                return "Unknown config operation " + c.configOperation() + " for configuration '" + c.name() + "'";
            }
        }
        return null;
    }

    /** The operations of {@code resource}, each applied to its key alone; only for a resource {@link #refusal} passes. */
    private static List<ConfigOperation> operations(AlterConfigsResource resource) {
        List<ConfigOperation> ops = new ArrayList<>();
        for (AlterableConfig c : resource.configs()) {
            ops.add(new ConfigOperation(operationType(c.configOperation()), c.name(), c.value()));
        }
        return ops;
    }

    static IncrementalAlterConfigsRequestData toRequest(List<ConfigChange> changes, boolean validateOnly) {
        IncrementalAlterConfigsRequestData data =
                new IncrementalAlterConfigsRequestData().setValidateOnly(validateOnly);
        for (ConfigChange change : changes) {
            AlterConfigsResource resource = new AlterConfigsResource()
                    .setResourceType(ConfigResourceAlterations.typeId(change.resource()))
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
                    ConfigResourceAlterations.resource(r.resourceType(), r.resourceName()),
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
}
