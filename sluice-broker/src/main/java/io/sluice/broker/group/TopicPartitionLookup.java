package io.sluice.broker.group;

/** Tells the coordinator whether a partition exists, so commits for unknown ones are refused. Thread-safe. */
@FunctionalInterface
public interface TopicPartitionLookup {
    boolean exists(String topic, int partition);
}
