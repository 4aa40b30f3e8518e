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
    record Resolution(String userTag, String clientTag, double bound) {
    }

    private final EnumMap<QuotaType, Map<String, Double>> bounds;
    /** The types with a quota on some user entity: the others look at client-id entities only. */
    private final EnumSet<QuotaType> withUserQuotas;

    private QuotaTable(EnumMap<QuotaType, Map<String, Double>> bounds, EnumSet<QuotaType> withUserQuotas) {
        this.bounds = bounds;
        this.withUserQuotas = withUserQuotas;
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

    /** The quota of {@code type} that applies to {@code user}'s requests as {@code clientId}; null when none does. */
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
        return null;
    }
}
