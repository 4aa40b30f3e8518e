package io.sluice.cluster.state;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A topic: id, name, configs and its partitions (index = partition number). Changing a partition makes a new
 * instance sharing the unchanged partition states. Immutable; safe to share.
 */
public final class TopicState {
    private final UUID id;
    private final String name;
    private final Map<String, String> configs;
    private final PartitionState[] partitions;

    public TopicState(UUID id, String name, Map<String, String> configs, PartitionState[] partitions) {
        this.id = Objects.requireNonNull(id, "id");
        this.name = Objects.requireNonNull(name, "name");
        this.configs = Map.copyOf(configs);
        this.partitions = partitions.clone();
    }

    public UUID id() {
        return id;
    }

    public String name() {
        return name;
    }

    public Map<String, String> configs() {
        return configs;
    }

    public int partitionCount() {
        return partitions.length;
    }

    public PartitionState partition(int index) {
        return partitions[index];
    }

    /** A copy with its configuration replaced by {@code newConfigs} (a topic config change); partitions shared. */
    public TopicState withConfigs(Map<String, String> newConfigs) {
        return new TopicState(id, name, Map.copyOf(newConfigs), partitions, true);
    }

    /** A copy with several partitions replaced ({@code changes[i]} null means unchanged). */
    public TopicState withPartitions(PartitionState[] changes) {
        PartitionState[] copy = partitions.clone();
        for (int i = 0; i < changes.length && i < copy.length; i++) {
            if (changes[i] != null) {
                copy[i] = changes[i];
            }
        }
        return new TopicState(id, name, configs, copy, true);
    }

    /** A copy with {@code added} appended as partitions {@code partitionCount()}, {@code partitionCount() + 1}, ... */
    public TopicState withAddedPartitions(java.util.List<PartitionState> added) {
        PartitionState[] copy = Arrays.copyOf(partitions, partitions.length + added.size());
        for (int i = 0; i < added.size(); i++) {
            copy[partitions.length + i] = added.get(i);
        }
        return new TopicState(id, name, configs, copy, true);
    }

    private TopicState(UUID id, String name, Map<String, String> configs, PartitionState[] owned, boolean adopt) {
        this.id = id;
        this.name = name;
        this.configs = configs;
        this.partitions = owned;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TopicState t
                && id.equals(t.id)
                && name.equals(t.name)
                && configs.equals(t.configs)
                && Arrays.equals(partitions, t.partitions);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "TopicState{" + name + "/" + id + ", partitions=" + partitions.length + ", configs=" + configs + "}";
    }
}
