package io.sluice.cluster.controller;

import io.sluice.cluster.state.ClusterState;
import java.util.Map;

/**
 * What the controller needs to know about configuration keys, supplied by the broker module (which owns the keys,
 * their types, defaults and validators). Called on the controller thread; implementations must be thread-safe and
 * must not block.
 */
public interface ConfigSchema {

    /** Whether {@code key} of resources of {@code type} is a list (APPEND and SUBTRACT apply); false when unknown. */
    boolean isList(ConfigResource.Type type, String key);

    /**
     * The value APPEND and SUBTRACT start from when {@code resource} has no dynamic value for {@code key} (the value
     * it has by default); null or empty for an empty list.
     */
    String baseValue(ConfigResource resource, String key);

    /**
     * Checks the complete new dynamic configuration of {@code resource}.
     *
     * @param current the dynamic configuration now
     * @param next    the dynamic configuration after the change
     * @throws ConfigRefusedException with INVALID_CONFIG for an unknown key or bad value, INVALID_REQUEST for a key
     *                                that cannot change while brokers run
     */
    void validate(ConfigResource resource, Map<String, String> current, Map<String, String> next, ClusterState state)
            throws ConfigRefusedException;
}
