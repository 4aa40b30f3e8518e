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
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.AlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.AlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;

/**
 * AlterConfigs, the legacy API ({@code Admin.alterConfigs}): the configs given become the resource's whole dynamic
 * configuration (keys not named are removed), for topics, brokers and the cluster default, decided by the controller
 * ({@link ConfigAlterations}).
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class AlterConfigsHandler implements ApiHandler<AlterConfigsRequestData> {
    private final ConfigResourceAlterations alterations;

    private AlterConfigsHandler(ConfigResourceAlterations alterations) {
        this.alterations = alterations;
    }

    /** The handler of a broker: changes run on {@code node}'s controller or are forwarded over {@code controller}. */
    public static AlterConfigsHandler of(
            Supplier<ClusterNode> node, ConfigSchema schema, int selfId, ControllerChannel controller) {
        return new AlterConfigsHandler(ConfigResourceAlterations.of(
                node,
                schema,
                selfId,
                controller,
                true,
                new ConfigResourceAlterations.Wire(
                        ApiKeys.ALTER_CONFIGS,
                        AlterConfigsHandler::toRequest,
                        (readable, version) -> fromResponse(new AlterConfigsResponseData(readable, version)))));
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, AlterConfigsRequestData request) {
        List<ConfigResourceAlterations.Requested> requested = new ArrayList<>();
        for (AlterConfigsResource resource : request.resources()) {
            String refusal = ConfigResourceAlterations.unsupportedType(resource.resourceType());
            requested.add(new ConfigResourceAlterations.Requested(
                    resource.resourceType(),
                    resource.resourceName(),
                    refusal,
                    refusal == null ? sets(resource) : List.of()));
        }
        AlterConfigsResponseData response = new AlterConfigsResponseData();
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

    /** The configs of {@code resource} as SETs: with replace, the resource's whole dynamic configuration. */
    private static List<ConfigOperation> sets(AlterConfigsResource resource) {
        List<ConfigOperation> ops = new ArrayList<>();
        for (AlterableConfig c : resource.configs()) {
            ops.add(new ConfigOperation(ConfigOperation.Type.SET, c.name(), c.value()));
        }
        return ops;
    }

    private static AlterConfigsRequestData toRequest(List<ConfigChange> changes, boolean validateOnly) {
        AlterConfigsRequestData data = new AlterConfigsRequestData().setValidateOnly(validateOnly);
        for (ConfigChange change : changes) {
            AlterConfigsResource resource = new AlterConfigsResource()
                    .setResourceType(ConfigResourceAlterations.typeId(change.resource()))
                    .setResourceName(change.resource().name());
            for (ConfigOperation op : change.operations()) {
                resource.configs().add(new AlterableConfig().setName(op.key()).setValue(op.value()));
            }
            data.resources().add(resource);
        }
        return data;
    }

    private static List<ConfigAlterations.Outcome> fromResponse(AlterConfigsResponseData data) {
        List<ConfigAlterations.Outcome> out = new ArrayList<>();
        for (AlterConfigsResourceResponse r : data.responses()) {
            out.add(new ConfigAlterations.Outcome(
                    ConfigResourceAlterations.resource(r.resourceType(), r.resourceName()),
                    r.errorCode(),
                    r.errorMessage()));
        }
        return out;
    }
}
