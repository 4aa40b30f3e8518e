package io.sluice.cluster.controller;

import java.util.List;

/**
 * The requested change of one resource's dynamic configuration. Immutable; safe to share.
 *
 * @param resource   the topic or broker
 * @param operations the operations in request order (no key twice)
 * @param replaceAll true for the legacy AlterConfigs: the SET operations become the whole dynamic set and every key
 *                   they do not name is removed
 */
public record ConfigChange(ConfigResource resource, List<ConfigOperation> operations, boolean replaceAll) {

    public ConfigChange {
        operations = List.copyOf(operations);
    }
}
