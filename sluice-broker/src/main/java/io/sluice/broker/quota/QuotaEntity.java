package io.sluice.broker.quota;

import io.sluice.cluster.controller.ConfigResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.utils.Sanitizer;

/**
 * A client quota entity as Kafka's admin API names it (entity types {@code user}, {@code client-id}, {@code ip}, a
 * null name for the default entity of a type) and as Kafka's ZooKeeper mode stores it: the configuration resource
 * {@code clients/<id>}, {@code users/<user>}, {@code users/<user>/clients/<id>} or {@code ips/<ip>}, names sanitized
 * (URL-encoded) and {@code <default>} for the default. {@link #parse} applies Kafka's checks of an entity.
 *
 * <p>Immutable; thread-safe.
 *
 * @param user     the user name (principal name), null for the default user, absent when {@code hasUser} is false
 * @param clientId the client id, null for the default client id
 * @param ip       the IP address or host, null for the default IP
 */
public record QuotaEntity(
        boolean hasUser, String user, boolean hasClientId, String clientId, boolean hasIp, String ip) {
    /** Kafka's name of the default entity in ZooKeeper paths ({@code ConfigEntityName.DEFAULT}). */
    public static final String DEFAULT = "<default>";

    /** An entity refused with Kafka's message (always INVALID_REQUEST). */
    public static final class InvalidEntityException extends Exception {
        private static final long serialVersionUID = 1L;

        public InvalidEntityException(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The entity of (type, name) pairs in request order, checked as Kafka does: not empty, known types, no type twice,
     * no empty name, and an IP never combined with a user or client id.
     */
    public static QuotaEntity parse(List<Map.Entry<String, String>> entries) throws InvalidEntityException {
        if (entries.isEmpty()) {
            throw new InvalidEntityException("Invalid empty client quota entity");
        }
        Map<String, String> byType = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : entries) {
            String type = e.getKey();
            if (!ClientQuotaEntity.USER.equals(type)
                    && !ClientQuotaEntity.CLIENT_ID.equals(type)
                    && !ClientQuotaEntity.IP.equals(type)) {
                throw new InvalidEntityException("Unhandled client quota entity type: " + type);
            }
            if (byType.containsKey(type)) {
                throw new InvalidEntityException("Invalid client quota entity, duplicate entity entry " + type);
            }
            if (e.getValue() != null && e.getValue().isEmpty()) {
                throw new InvalidEntityException("Empty " + type + " not supported");
            }
            byType.put(type, e.getValue());
        }
        boolean hasIp = byType.containsKey(ClientQuotaEntity.IP);
        if (hasIp && byType.size() > 1) {
            throw new InvalidEntityException(
                    "Invalid quota entity combination, IP entity should not be used with " + "user/client ID entity.");
        }
        return new QuotaEntity(
                byType.containsKey(ClientQuotaEntity.USER),
                byType.get(ClientQuotaEntity.USER),
                byType.containsKey(ClientQuotaEntity.CLIENT_ID),
                byType.get(ClientQuotaEntity.CLIENT_ID),
                hasIp,
                byType.get(ClientQuotaEntity.IP));
    }

    /** The entity a stored quota path ({@code users/alice/clients/app-1}) names; null when it names none. */
    public static QuotaEntity ofPath(String path) {
        String[] parts = path.split("/", -1);
        if (parts.length == 2 && parts[0].equals("clients")) {
            return new QuotaEntity(false, null, true, desanitize(parts[1]), false, null);
        }
        if (parts.length == 2 && parts[0].equals("users")) {
            return new QuotaEntity(true, desanitize(parts[1]), false, null, false, null);
        }
        if (parts.length == 4 && parts[0].equals("users") && parts[2].equals("clients")) {
            return new QuotaEntity(true, desanitize(parts[1]), true, desanitize(parts[3]), false, null);
        }
        if (parts.length == 2 && parts[0].equals("ips")) {
            return new QuotaEntity(false, null, false, null, true, desanitize(parts[1]));
        }
        return null;
    }

    /** The configuration resource Kafka's ZooKeeper mode keeps this entity's quotas under. */
    public ConfigResource resource() {
        if (hasIp) {
            return new ConfigResource(ConfigResource.Type.IP, sanitize(ip));
        }
        if (hasUser) {
            return new ConfigResource(
                    ConfigResource.Type.USER,
                    hasClientId ? sanitize(user) + "/clients/" + sanitize(clientId) : sanitize(user));
        }
        return new ConfigResource(ConfigResource.Type.CLIENT, sanitize(clientId));
    }

    /** The entity a configuration resource of a quota kind names. */
    public static QuotaEntity ofResource(ConfigResource resource) {
        return Objects.requireNonNull(ofPath(resource.quotaPath()), resource::toString);
    }

    /** The (type, name) pairs as Kafka's responses list them: user before client id; null names for defaults. */
    public List<Map.Entry<String, String>> entries() {
        List<Map.Entry<String, String>> out = new ArrayList<>(2);
        if (hasUser) {
            out.add(new java.util.AbstractMap.SimpleEntry<>(ClientQuotaEntity.USER, user));
        }
        if (hasClientId) {
            out.add(new java.util.AbstractMap.SimpleEntry<>(ClientQuotaEntity.CLIENT_ID, clientId));
        }
        if (hasIp) {
            out.add(new java.util.AbstractMap.SimpleEntry<>(ClientQuotaEntity.IP, ip));
        }
        return out;
    }

    /** Kafka's sanitized entity name: URL-encoded, {@link #DEFAULT} for null. */
    public static String sanitize(String name) {
        return name == null ? DEFAULT : Sanitizer.sanitize(name);
    }

    private static String desanitize(String sanitized) {
        return DEFAULT.equals(sanitized) ? null : Sanitizer.desanitize(sanitized);
    }
}
