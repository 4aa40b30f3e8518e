package io.sluice.broker.topic;

import java.util.Map;
import org.apache.kafka.common.Uuid;

/**
 * What the broker knows about one topic: its name, id, partition count and the configuration
 * overrides it was created with.
 *
 * <p>Immutable.
 */
public record TopicInfo(String name, Uuid id, int partitionCount, Map<String, String> configOverrides) {
    public TopicInfo {
        configOverrides = Map.copyOf(configOverrides);
    }
}
