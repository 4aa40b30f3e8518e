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
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.AlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.AlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * AlterConfigs, the legacy API ({@code Admin.alterConfigs}): the configs given become the resource's whole dynamic
 * configuration (keys not named are removed), for topics, brokers and the cluster default, decided by the controller
 * ({@link ConfigAlterations}).
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class AlterConfigsHandler implements ApiHandler<AlterConfigsRequestData> {
    private static final byte TOPIC = 2;
    private static final byte BROKER = 4;

    private final ConfigAlterations alterations;
    private final ControllerChannel controller;

    private AlterConfigsHandler(ConfigAlterations alterations, ControllerChannel controller) {
        this.alterations = alterations;
        this.controller = controller;
    }

    /** The handler of a broker: changes run on {@code node}'s controller or are forwarded over {@code controller}. */
    public static AlterConfigsHandler of(
            java.util.function.Supplier<io.sluice.cluster.node.ClusterNode> node,
            io.sluice.cluster.controller.ConfigSchema schema,
            int selfId,
            ControllerChannel controller) {
        return new AlterConfigsHandler(
                new ConfigAlterations(node, schema, selfId, controller.forwarding()), controller);
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, AlterConfigsRequestData request) {
        AlterConfigsResponseData response = new AlterConfigsResponseData();
        List<ConfigChange> changes = new ArrayList<>();
        for (AlterConfigsResource resource : request.resources()) {
            if (resource.resourceType() != TOPIC && resource.resourceType() != BROKER) {
                response.responses()
                        .add(row(
                                resource.resourceType(),
                                resource.resourceName(),
                                Errors.INVALID_REQUEST.code(),
                                "Unsupported resource type " + resource.resourceType()
                                        + "; only topics (2) and brokers (4) have dynamic configurations"));
                continue;
            }
            Errors denied = ConfigAlterations.alterError(context, resource.resourceType(), resource.resourceName());
            if (denied != null) {
                response.responses().add(row(resource.resourceType(), resource.resourceName(), denied.code(), null));
                continue;
            }
            List<ConfigOperation> ops = new ArrayList<>();
            for (AlterableConfig c : resource.configs()) {
                ops.add(new ConfigOperation(ConfigOperation.Type.SET, c.name(), c.value()));
            }
            changes.add(new ConfigChange(
                    new ConfigResource(
                            resource.resourceType() == TOPIC ? ConfigResource.Type.TOPIC : ConfigResource.Type.BROKER,
                            resource.resourceName()),
                    ops,
                    true));
        }
        short version = context.apiVersion();
        return alterations
                .alter(
                        context,
                        changes,
                        request.validateOnly(),
                        (forward, validateOnly) -> controller.send(
                                ApiKeys.ALTER_CONFIGS,
                                version,
                                toRequest(forward, validateOnly),
                                readable -> fromResponse(new AlterConfigsResponseData(readable, version))))
                .thenApply(outcomes -> {
                    for (ConfigAlterations.Outcome o : outcomes) {
                        response.responses()
                                .add(row(
                                        IncrementalAlterConfigsHandler.typeId(o.resource()),
                                        o.resource().name(),
                                        o.errorCode(),
                                        o.message()));
                    }
                    return response;
                });
    }

    private static AlterConfigsRequestData toRequest(List<ConfigChange> changes, boolean validateOnly) {
        AlterConfigsRequestData data = new AlterConfigsRequestData().setValidateOnly(validateOnly);
        for (ConfigChange change : changes) {
            AlterConfigsResource resource = new AlterConfigsResource()
                    .setResourceType(IncrementalAlterConfigsHandler.typeId(change.resource()))
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
                    new ConfigResource(
                            r.resourceType() == TOPIC ? ConfigResource.Type.TOPIC : ConfigResource.Type.BROKER,
                            r.resourceName()),
                    r.errorCode(),
                    r.errorMessage()));
        }
        return out;
    }

    private static AlterConfigsResourceResponse row(byte type, String name, short error, String message) {
        return new AlterConfigsResourceResponse()
                .setResourceType(type)
                .setResourceName(name)
                .setErrorCode(error)
                .setErrorMessage(message);
    }
}
