package io.sluice.broker.config;

import static io.sluice.broker.config.BrokerConfigKeys.BROKER_ID;
import static io.sluice.broker.config.BrokerConfigKeys.GROUP_MAX_SESSION_TIMEOUT_MS;
import static io.sluice.broker.config.BrokerConfigKeys.GROUP_MIN_SESSION_TIMEOUT_MS;
import static io.sluice.broker.config.BrokerConfigKeys.LOG_DIR;
import static io.sluice.broker.config.BrokerConfigKeys.LOG_DIRS;
import static io.sluice.broker.config.BrokerConfigKeys.NODE_ID;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The broker keys {@link BrokerConfig} resolves or checks together rather than one by one (listeners aside, see
 * {@link BrokerListeners}): broker.id and node.id, log.dirs and log.dir, the group session timeout bounds. Each takes
 * the parsed values and the explicitly given keys.
 * Stateless; thread-safe.
 */
final class CrossKeyRules {
    private CrossKeyRules() {}

    /** node.id when given (it must then agree with an explicit broker.id), else broker.id. */
    static int resolveBrokerId(Map<String, Object> values, Map<String, String> explicit) {
        int brokerId = (Integer) values.get(BROKER_ID);
        Integer nodeId = (Integer) values.get(NODE_ID);
        if (nodeId == null) {
            return brokerId;
        }
        if (explicit.containsKey(BROKER_ID) && brokerId != nodeId) {
            throw new ConfigException(
                    NODE_ID, String.valueOf(nodeId), "differs from broker.id " + brokerId + "; set one of them");
        }
        return nodeId;
    }

    /** log.dirs when set, else log.dir; each must be a path. */
    @SuppressWarnings("unchecked")
    static List<Path> resolveLogDirs(Map<String, Object> values) {
        List<String> dirs = (List<String>) values.get(LOG_DIRS);
        if (dirs == null || dirs.isEmpty()) {
            return List.of(toPath(LOG_DIR, (String) values.get(LOG_DIR)));
        }
        List<Path> paths = new ArrayList<>(dirs.size());
        for (String dir : dirs) {
            paths.add(toPath(LOG_DIRS, dir));
        }
        return List.copyOf(paths);
    }

    private static Path toPath(String key, String dir) {
        try {
            return Path.of(dir);
        } catch (InvalidPathException e) {
            throw new ConfigException(key, dir, "not a path: " + e.getReason());
        }
    }

    /** group.min.session.timeout.ms must not exceed group.max.session.timeout.ms. */
    static void checkSessionTimeouts(Map<String, Object> values, Map<String, String> explicit) {
        int min = (Integer) values.get(GROUP_MIN_SESSION_TIMEOUT_MS);
        int max = (Integer) values.get(GROUP_MAX_SESSION_TIMEOUT_MS);
        if (min > max) {
            // Name the key that was set: the other one is the default it contradicts.
            if (explicit.containsKey(GROUP_MAX_SESSION_TIMEOUT_MS)
                    && !explicit.containsKey(GROUP_MIN_SESSION_TIMEOUT_MS)) {
                throw new ConfigException(
                        GROUP_MAX_SESSION_TIMEOUT_MS,
                        String.valueOf(max),
                        "is smaller than group.min.session.timeout.ms " + min);
            }
            throw new ConfigException(
                    GROUP_MIN_SESSION_TIMEOUT_MS,
                    String.valueOf(min),
                    "is larger than group.max.session.timeout.ms " + max);
        }
    }
}
