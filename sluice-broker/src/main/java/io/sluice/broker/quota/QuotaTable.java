package io.sluice.broker.quota;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;

/**
 * The client quotas of one cluster state, per quota type and entity path, and Kafka's precedence among them for a
 * (user, client id) pair: {@code users/<user>/clients/<client-id>}, {@code users/<user>/clients/<default>},
 * {@code users/<user>}, {@code users/<default>/clients/<client-id>}, {@code users/<default>/clients/<default>},
 * {@code users/<default>}, {@code clients/<client-id>}, {@code clients/<default>}. The entity found also says which
 * clients share one measured rate (Kafka's metric tags): a user-level quota is shared by all the user's client ids, a
 * client-id quota by every user of that client id.
 *
 * <p>Immutable; thread-safe.
 */
final class QuotaTable {
    static final QuotaTable EMPTY = new QuotaTable(new EnumMap<>(QuotaType.class), EnumSet.noneOf(QuotaType.class));
    private static final String DEFAULT = QuotaEntity.DEFAULT;

    /** Which measured rate a request counts into ({@code ""} for a tag that does not apply) and its bound. */
    record Resolution(String userTag, String clientTag, double bound) {}

    /** Kafka's QuotaTypes bits: which kinds of entity have a quota of a type. */
    private static final int CLIENT_ID_QUOTAS = 1;

    private static final int USER_QUOTAS = 2;
    private static final int USER_CLIENT_ID_QUOTAS = 4;

    private final EnumMap<QuotaType, Map<String, Double>> bounds;
    /** The types with a quota on some user entity: the others look at client-id entities only. */
    private final EnumSet<QuotaType> withUserQuotas;

    private final EnumMap<QuotaType, Integer> kinds;

    private QuotaTable(EnumMap<QuotaType, Map<String, Double>> bounds, EnumSet<QuotaType> withUserQuotas) {
        this.bounds = bounds;
        this.withUserQuotas = withUserQuotas;
        this.kinds = new EnumMap<>(QuotaType.class);
        bounds.forEach((type, byPath) -> {
            int bits = 0;
            for (String path : byPath.keySet()) {
                bits |= !path.startsWith("users/")
                        ? CLIENT_ID_QUOTAS
                        : path.contains("/clients/") ? USER_CLIENT_ID_QUOTAS : USER_QUOTAS;
            }
            kinds.put(type, bits);
        });
    }

    /** The table of the cluster state's quota configurations (entity path to quota keys); unparsable values are skipped. */
    static QuotaTable of(Map<String, Map<String, String>> configs) {
        EnumMap<QuotaType, Map<String, Double>> bounds = new EnumMap<>(QuotaType.class);
        EnumSet<QuotaType> withUserQuotas = EnumSet.noneOf(QuotaType.class);
        for (Map.Entry<String, Map<String, String>> entity : configs.entrySet()) {
            for (QuotaType type : QuotaType.values()) {
                String text = entity.getValue().get(type.key());
                if (text == null) {
                    continue;
                }
                try {
                    double bound = Double.parseDouble(text);
                    if (bound > 0) {
                        bounds.computeIfAbsent(type, t -> new HashMap<>()).put(entity.getKey(), bound);
                        if (entity.getKey().startsWith("users/")) {
                            withUserQuotas.add(type);
                        }
                    }
                } catch (NumberFormatException e) {
                    // the controller refuses such values; a table never holds them
                }
            }
        }
        return bounds.isEmpty() ? EMPTY : new QuotaTable(bounds, withUserQuotas);
    }

    boolean isEmpty() {
        return bounds.isEmpty();
    }

    /**
     * The quota of {@code type} that applies to {@code user}'s requests as {@code clientId}: null when the type has no
     * quota at all, an infinite bound when it has quotas but none for this client.
     */
    Resolution resolve(QuotaType type, String user, String clientId) {
        Map<String, Double> byPath = bounds.get(type);
        if (byPath == null) {
            return null;
        }
        String c = QuotaEntity.sanitize(clientId);
        Double bound;
        if (withUserQuotas.contains(type)) {
            String u = QuotaEntity.sanitize(user);
            if ((bound = byPath.get("users/" + u + "/clients/" + c)) != null
                    || (bound = byPath.get("users/" + u + "/clients/" + DEFAULT)) != null) {
                return new Resolution(u, clientId, bound);
            }
            if ((bound = byPath.get("users/" + u)) != null) {
                return new Resolution(u, "", bound);
            }
            if ((bound = byPath.get("users/" + DEFAULT + "/clients/" + c)) != null
                    || (bound = byPath.get("users/" + DEFAULT + "/clients/" + DEFAULT)) != null) {
                return new Resolution(u, clientId, bound);
            }
            if ((bound = byPath.get("users/" + DEFAULT)) != null) {
                return new Resolution(u, "", bound);
            }
        }
        if ((bound = byPath.get("clients/" + c)) != null || (bound = byPath.get("clients/" + DEFAULT)) != null) {
            return new Resolution("", clientId, bound);
        }
        return unbounded(type, user, clientId);
    }

    /**
     * A client no quota of {@code type} names still has its rate measured while the type has quotas, without a bound,
     * under the tags Kafka's DefaultQuotaCallback gives it (so its metrics appear as they do in Kafka): the user alone
     * when only user quotas exist, user and client id when only user-and-client-id quotas exist, else the client id.
     */
    private Resolution unbounded(QuotaType type, String user, String clientId) {
        int bits = kinds.getOrDefault(type, 0);
        String u = QuotaEntity.sanitize(user);
        return switch (bits) {
            case USER_QUOTAS -> new Resolution(u, "", Double.POSITIVE_INFINITY);
            case USER_CLIENT_ID_QUOTAS -> new Resolution(u, clientId, Double.POSITIVE_INFINITY);
            default -> new Resolution("", clientId, Double.POSITIVE_INFINITY);
        };
    }
}
