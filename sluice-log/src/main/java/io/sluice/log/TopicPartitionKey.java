package io.sluice.log;

/**
 * A topic and partition, the key of a partition log and of its directory name {@code <topic>-<partition>}.
 * Immutable.
 */
public record TopicPartitionKey(String topic, int partition) {

    public TopicPartitionKey {
        if (topic == null || topic.isEmpty()) {
            throw new IllegalArgumentException("topic must be non-empty, was '" + topic + "'");
        }
        if (partition < 0) {
            throw new IllegalArgumentException("partition must be >= 0, was " + partition + " for topic " + topic);
        }
    }

    /** The partition directory name, as Kafka names it. */
    public String dirName() {
        return topic + "-" + partition;
    }

    /**
     * Parses a partition directory name; topic names may contain '-', the partition is after the last one.
     *
     * @return the key, or null when the name is not {@code <topic>-<non-negative int>}
     */
    public static TopicPartitionKey parseDirName(String name) {
        int dash = name.lastIndexOf('-');
        if (dash <= 0 || dash == name.length() - 1) {
            return null;
        }
        String digits = name.substring(dash + 1);
        if (digits.length() > 10 || !digits.chars().allMatch(Character::isDigit)) {
            return null;
        }
        long partition = Long.parseLong(digits);
        if (partition > Integer.MAX_VALUE) {
            return null;
        }
        return new TopicPartitionKey(name.substring(0, dash), (int) partition);
    }

    @Override
    public String toString() {
        return dirName();
    }
}
