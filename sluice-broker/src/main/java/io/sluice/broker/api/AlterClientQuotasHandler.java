package io.sluice.broker.api;

import io.sluice.broker.config.ClientQuotaKeys;
import io.sluice.broker.interbroker.ControllerChannel;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.quota.QuotaEntity;
import io.sluice.cluster.controller.ConfigChange;
import io.sluice.cluster.controller.ConfigOperation;
import io.sluice.cluster.controller.ConfigRefusedException;
import io.sluice.cluster.controller.ConfigResource;
import io.sluice.cluster.controller.ConfigSchema;
import io.sluice.cluster.node.ClusterNode;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.AlterClientQuotasRequestData;
import org.apache.kafka.common.message.AlterClientQuotasRequestData.EntryData;
import org.apache.kafka.common.message.AlterClientQuotasRequestData.OpData;
import org.apache.kafka.common.message.AlterClientQuotasResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * AlterClientQuotas (KIP-546; {@code kafka-configs.sh --entity-type clients|users --alter}): each entity checked as
 * Kafka checks it ({@link QuotaEntity#parse}; an IP must be an address or a resolvable host), each operation's key and
 * value as Kafka's controller does ({@link ClientQuotaKeys}; INVALID_REQUEST and nothing stored for the entity), then
 * the change decided by the controller like a config change ({@link ConfigAlterations}: here when this broker is the
 * controller, else forwarded to it) into the cluster state's quota table, which every broker enforces.
 * ALTER_CONFIGS on the cluster is required.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class AlterClientQuotasHandler implements ApiHandler<AlterClientQuotasRequestData> {
    private final ConfigAlterations alterations;
    private final ControllerChannel controller;

    private AlterClientQuotasHandler(ConfigAlterations alterations, ControllerChannel controller) {
        this.alterations = alterations;
        this.controller = controller;
    }

    /** The handler of a broker: changes run on {@code node}'s controller or are forwarded over {@code controller}. */
    public static AlterClientQuotasHandler of(
            Supplier<ClusterNode> node, ConfigSchema schema, int selfId, ControllerChannel controller) {
        return new AlterClientQuotasHandler(
                new ConfigAlterations(node, schema, selfId, controller.forwarding()), controller);
    }

    /** One entry of the answer: refused here ({@code error} set) or waiting for the controller's outcome. */
    private static final class Row {
        final List<AlterClientQuotasResponseData.EntityData> entity;
        final ConfigResource resource;
        short error;
        String message;

        Row(List<AlterClientQuotasResponseData.EntityData> entity, ConfigResource resource) {
            this.entity = entity;
            this.resource = resource;
        }
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, AlterClientQuotasRequestData request) {
        boolean allowed = context.authorizeCluster(AclOperation.ALTER_CONFIGS);
        List<Row> rows = new ArrayList<>(request.entries().size());
        List<ConfigChange> changes = new ArrayList<>();
        for (EntryData entry : request.entries()) {
            List<AlterClientQuotasResponseData.EntityData> entity = new ArrayList<>();
            List<Map.Entry<String, String>> pairs = new ArrayList<>();
            for (AlterClientQuotasRequestData.EntityData e : entry.entity()) {
                entity.add(new AlterClientQuotasResponseData.EntityData()
                        .setEntityType(e.entityType())
                        .setEntityName(e.entityName()));
                pairs.add(new AbstractMap.SimpleEntry<>(e.entityType(), e.entityName()));
            }
            if (!allowed) {
                Row refused = new Row(entity, null);
                refused.error = Errors.CLUSTER_AUTHORIZATION_FAILED.code();
                rows.add(refused);
                continue;
            }
            try {
                QuotaEntity parsed = QuotaEntity.parse(pairs);
                requireResolvableIp(parsed);
                ConfigResource resource = parsed.resource();
                changes.add(new ConfigChange(resource, operations(resource, entry.ops()), false));
                rows.add(new Row(entity, resource));
            } catch (QuotaEntity.InvalidEntityException | ConfigRefusedException e) {
                Row refused = new Row(entity, null);
                refused.error = Errors.INVALID_REQUEST.code();
                refused.message = e.getMessage();
                rows.add(refused);
            }
        }
        short version = context.apiVersion();
        return alterations
                .alter(
                        context,
                        changes,
                        request.validateOnly(),
                        (forward, validateOnly) -> controller.send(
                                ApiKeys.ALTER_CLIENT_QUOTAS,
                                version,
                                toRequest(forward, validateOnly),
                                readable -> fromResponse(new AlterClientQuotasResponseData(readable, version))))
                .thenApply(outcomes -> {
                    Map<ConfigResource, ConfigAlterations.Outcome> byResource = new HashMap<>();
                    for (ConfigAlterations.Outcome o : outcomes) {
                        byResource.putIfAbsent(o.resource(), o);
                    }
                    AlterClientQuotasResponseData response = new AlterClientQuotasResponseData();
                    for (Row row : rows) {
                        ConfigAlterations.Outcome o = row.resource == null ? null : byResource.get(row.resource);
                        response.entries()
                                .add(new AlterClientQuotasResponseData.EntryData()
                                        .setEntity(row.entity)
                                        .setErrorCode(o == null ? row.error : o.errorCode())
                                        .setErrorMessage(o == null ? row.message : o.message()));
                    }
                    return response;
                });
    }

    /** Kafka's check of an IP entity: an address, or a host name that resolves. */
    private static void requireResolvableIp(QuotaEntity entity) throws QuotaEntity.InvalidEntityException {
        if (!entity.hasIp() || entity.ip() == null) {
            return;
        }
        try {
            InetAddress.getByName(entity.ip());
        } catch (UnknownHostException e) {
            throw new QuotaEntity.InvalidEntityException(entity.ip() + " is not a valid IP or resolvable host.");
        }
    }

    private static List<ConfigOperation> operations(ConfigResource resource, List<OpData> ops)
            throws ConfigRefusedException {
        List<ConfigOperation> out = new ArrayList<>(ops.size());
        for (OpData op : ops) {
            out.add(
                    op.remove()
                            ? new ConfigOperation(ConfigOperation.Type.DELETE, op.key(), null)
                            : new ConfigOperation(
                                    ConfigOperation.Type.SET,
                                    op.key(),
                                    ClientQuotaKeys.textOf(resource.type(), op.key(), op.value())));
        }
        return out;
    }

    private static AlterClientQuotasRequestData toRequest(List<ConfigChange> changes, boolean validateOnly) {
        AlterClientQuotasRequestData data = new AlterClientQuotasRequestData().setValidateOnly(validateOnly);
        for (ConfigChange change : changes) {
            EntryData entry = new EntryData();
            for (Map.Entry<String, String> e :
                    QuotaEntity.ofResource(change.resource()).entries()) {
                entry.entity()
                        .add(new AlterClientQuotasRequestData.EntityData()
                                .setEntityType(e.getKey())
                                .setEntityName(e.getValue()));
            }
            for (ConfigOperation op : change.operations()) {
                boolean remove = op.type() == ConfigOperation.Type.DELETE;
                entry.ops()
                        .add(new OpData()
                                .setKey(op.key())
                                .setRemove(remove)
                                .setValue(remove ? 0 : Double.parseDouble(op.value())));
            }
            data.entries().add(entry);
        }
        return data;
    }

    private static List<ConfigAlterations.Outcome> fromResponse(AlterClientQuotasResponseData data) {
        List<ConfigAlterations.Outcome> out = new ArrayList<>();
        for (AlterClientQuotasResponseData.EntryData entry : data.entries()) {
            List<Map.Entry<String, String>> pairs = new ArrayList<>();
            for (AlterClientQuotasResponseData.EntityData e : entry.entity()) {
                pairs.add(new AbstractMap.SimpleEntry<>(e.entityType(), e.entityName()));
            }
            try {
                out.add(new ConfigAlterations.Outcome(
                        QuotaEntity.parse(pairs).resource(), entry.errorCode(), entry.errorMessage()));
            } catch (QuotaEntity.InvalidEntityException e) {
                // an entity the controller echoed back unreadably: its row is answered as not answered
            }
        }
        return out;
    }
}
