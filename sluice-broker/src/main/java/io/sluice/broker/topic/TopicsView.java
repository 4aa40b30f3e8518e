package io.sluice.broker.topic;

import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.TopicState;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.Uuid;

/**
 * The topics of one applied cluster state in the broker's terms, indexed by name and by Kafka topic
 * id. Topics unchanged since the previous view keep their {@link TopicInfo} instance.
 *
 * <p>Immutable; safe to share.
 */
final class TopicsView {
    static final TopicsView EMPTY = new TopicsView(ClusterState.EMPTY, Map.of(), Map.of());

    private final ClusterState state;
    private final Map<String, TopicInfo> byName;
    private final Map<Uuid, TopicInfo> byId;

    private TopicsView(ClusterState state, Map<String, TopicInfo> byName, Map<Uuid, TopicInfo> byId) {
        this.state = state;
        this.byName = byName;
        this.byId = byId;
    }

    static TopicsView of(ClusterState state, TopicsView previous) {
        Map<String, TopicInfo> byName = new LinkedHashMap<>();
        Map<Uuid, TopicInfo> byId = new HashMap<>();
        for (TopicState topic : state.topicsById().values()) {
            Uuid id = TopicManager.toKafka(topic.id());
            TopicInfo info = previous.byId.get(id);
            Map<String, String> configs =
                    OffsetsTopic.isInternal(topic.name()) ? OffsetsTopic.configs(topic.configs()) : topic.configs();
            if (info == null
                    || info.partitionCount() != topic.partitionCount()
                    || !info.configOverrides().equals(configs)) {
                info = new TopicInfo(topic.name(), id, topic.partitionCount(), configs);
            }
            byName.put(info.name(), info);
            byId.put(id, info);
        }
        return new TopicsView(state, Collections.unmodifiableMap(byName), Collections.unmodifiableMap(byId));
    }

    ClusterState state() {
        return state;
    }

    TopicInfo byName(String name) {
        return byName.get(name);
    }

    TopicInfo byId(Uuid id) {
        return byId.get(id);
    }

    Collection<TopicInfo> topics() {
        return byName.values();
    }
}
