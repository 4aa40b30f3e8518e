package io.sluice.broker.group;

/** States of a classic group, named as Kafka reports them in DescribeGroups and ListGroups. Immutable. */
public enum GroupState {
    EMPTY("Empty"),
    PREPARING_REBALANCE("PreparingRebalance"),
    COMPLETING_REBALANCE("CompletingRebalance"),
    STABLE("Stable"),
    DEAD("Dead");

    private final String kafkaName;

    GroupState(String kafkaName) {
        this.kafkaName = kafkaName;
    }

    /** The name Kafka's tools show and filter by. */
    public String kafkaName() {
        return kafkaName;
    }
}
