package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.quota.QuotaEntity;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData.ComponentData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData.EntityData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData.EntryData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData.ValueData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.quota.ClientQuotaEntity;

/**
 * DescribeClientQuotas (KIP-546; {@code kafka-configs.sh --entity-type clients|users --describe}): the quota entities
 * of the applied cluster state that match the filter, with Kafka 3.9's ZooKeeper-mode rules: a component per entity
 * type (exact name, default entity, or any), strict to leave out entities with types no component names, IP
 * components never combined with user or client id components; a duplicate or empty component type is
 * INVALID_REQUEST, an unknown type UNSUPPORTED_VERSION, an unknown match type UNKNOWN_SERVER_ERROR (Kafka's
 * IllegalArgumentException). DESCRIBE_CONFIGS on the cluster is required.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class DescribeClientQuotasHandler implements ApiHandler<DescribeClientQuotasRequestData> {
    private static final byte MATCH_EXACT = 0;
    private static final byte MATCH_DEFAULT = 1;
    private static final byte MATCH_ANY = 2;

    private final Supplier<Map<String, Map<String, String>>> quotas;

    /** @param quotas the applied cluster state's client quota configurations by entity path */
    public DescribeClientQuotasHandler(Supplier<Map<String, Map<String, String>>> quotas) {
        this.quotas = quotas;
    }

    /** One filter component: absent, any entity of the type, or one entity (null name: the default). */
    private record Component(boolean present, boolean any, String name) {
        static final Component ABSENT = new Component(false, false, null);

        /** Kafka's {@code matches}: an absent component admits entities without the type, or any when not strict. */
        boolean admits(boolean has, String entityName, boolean strict) {
            if (!present) {
                return !has || !strict;
            }
            return has && (any || Objects.equals(name, entityName));
        }
    }

    /** A refused filter: the error code and Kafka's message. */
    private record Refusal(Errors error, String message) {}

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, DescribeClientQuotasRequestData request) {
        if (!context.authorizeCluster(AclOperation.DESCRIBE_CONFIGS)) {
            return refused(new Refusal(Errors.CLUSTER_AUTHORIZATION_FAILED, null));
        }
        Component user = Component.ABSENT;
        Component client = Component.ABSENT;
        Component ip = Component.ABSENT;
        for (ComponentData c : request.components()) {
            Component parsed;
            switch (c.matchType()) {
                case MATCH_EXACT -> parsed = new Component(true, false, c.match());
                case MATCH_DEFAULT -> parsed = new Component(true, false, null);
                case MATCH_ANY -> parsed = new Component(true, true, null);
                default -> {
                    return refused(new Refusal(Errors.UNKNOWN_SERVER_ERROR, "Unexpected match type: " + c.matchType()));
                }
            }
            String type = c.entityType();
            if (ClientQuotaEntity.USER.equals(type) && !user.present()) {
                user = parsed;
            } else if (ClientQuotaEntity.CLIENT_ID.equals(type) && !client.present()) {
                client = parsed;
            } else if (ClientQuotaEntity.IP.equals(type) && !ip.present()) {
                ip = parsed;
            } else if (ClientQuotaEntity.USER.equals(type)
                    || ClientQuotaEntity.CLIENT_ID.equals(type)
                    || ClientQuotaEntity.IP.equals(type)) {
                return refused(new Refusal(
                        Errors.INVALID_REQUEST,
                        "Duplicate " + (ClientQuotaEntity.CLIENT_ID.equals(type) ? "client" : type)
                                + " filter component entity type"));
            } else if (type == null || type.isEmpty()) {
                return refused(new Refusal(Errors.INVALID_REQUEST, "Unexpected empty filter component entity type"));
            } else {
                return refused(
                        new Refusal(Errors.UNSUPPORTED_VERSION, "Custom entity type '" + type + "' not supported"));
            }
        }
        if ((user.present() || client.present()) && ip.present()) {
            return refused(new Refusal(
                    Errors.INVALID_REQUEST,
                    "Invalid entity filter component combination, IP filter "
                            + "component should not be used with user or clientId filter component."));
        }
        boolean strict = request.strict();
        DescribeClientQuotasResponseData response = new DescribeClientQuotasResponseData();
        for (Map.Entry<String, Map<String, String>> e : quotas.get().entrySet()) {
            QuotaEntity entity = QuotaEntity.ofPath(e.getKey());
            if (entity == null) {
                continue;
            }
            boolean matches = entity.hasIp()
                    ? !user.present() && !client.present() && ip.admits(true, entity.ip(), strict)
                    : !ip.present()
                            && user.admits(entity.hasUser(), entity.user(), strict)
                            && client.admits(entity.hasClientId(), entity.clientId(), strict);
            if (matches) {
                response.entries().add(entry(entity, e.getValue()));
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private static EntryData entry(QuotaEntity entity, Map<String, String> values) {
        EntryData entry = new EntryData();
        for (Map.Entry<String, String> part : entity.entries()) {
            entry.entity().add(new EntityData().setEntityType(part.getKey()).setEntityName(part.getValue()));
        }
        for (Map.Entry<String, String> v : values.entrySet()) {
            try {
                entry.values().add(new ValueData().setKey(v.getKey()).setValue(Double.parseDouble(v.getValue())));
            } catch (NumberFormatException e) {
                // the controller stores numbers only
            }
        }
        return entry;
    }

    private static CompletableFuture<ApiMessage> refused(Refusal refusal) {
        return CompletableFuture.completedFuture(new DescribeClientQuotasResponseData()
                .setErrorCode(refusal.error().code())
                .setErrorMessage(
                        refusal.message() != null
                                ? refusal.message()
                                : refusal.error().message())
                .setEntries(null));
    }
}
