package io.sluice.cluster.controller;

/**
 * The outcome of one partition (or one broker) in a replication operation of the controller, each mapping 1:1 to the
 * Kafka error code a client or broker expects ({@link #kafkaCode()}); sluice-cluster does not depend on kafka-clients,
 * so the codes are restated here. Immutable; safe to share.
 */
public enum ReplicationError {
    NONE(0),
    UNKNOWN_TOPIC_OR_PARTITION(3),
    /** CreateTopics of a name that differs from an existing topic's only in '.' against '_'. */
    INVALID_TOPIC_EXCEPTION(17),
    /** Controlled shutdown of a broker that is not registered. */
    BROKER_NOT_AVAILABLE(8),
    /** CreatePartitions with a count that is not an increase, or beyond what a topic may hold. */
    INVALID_PARTITIONS(37),
    /** More replicas per partition than live brokers. */
    INVALID_REPLICATION_FACTOR(38),
    /**
     * A reassignment target, or a manual assignment of CreateTopics or CreatePartitions, that is empty, names a broker
     * twice, names an unregistered broker or (manual assignments) differs in replica count between partitions.
     */
    INVALID_REPLICA_ASSIGNMENT(39),
    /**
     * The request carries a newer leader or partition epoch than the controller's state: the sender saw a newer
     * controller's decision, so it should find the current controller (Kafka's answer for the same case).
     */
    NOT_CONTROLLER(41),
    /**
     * An AlterPartition from a broker that does not lead the partition (Kafka 3.9's controller answers so), or a
     * proposed ISR that is malformed: empty, without the leader, with duplicates or brokers that are not replicas.
     */
    INVALID_REQUEST(42),
    /** CreatePartitions on a topic some partition of which is being reassigned. */
    REASSIGNMENT_IN_PROGRESS(60),
    /** The sender's leader epoch is older than the partition's. */
    FENCED_LEADER_EPOCH(74),
    PREFERRED_LEADER_NOT_AVAILABLE(80),
    ELIGIBLE_LEADERS_NOT_AVAILABLE(83),
    ELECTION_NOT_NEEDED(84),
    /** Cancelling the reassignment of a partition that is not being reassigned. */
    NO_REASSIGNMENT_IN_PROGRESS(85),
    /**
     * A broker's request carries the epoch of a registration older than the one the controller knows (an earlier
     * incarnation's request, delivered late).
     */
    STALE_BROKER_EPOCH(77),
    /** The sender's partition epoch is older than the partition's: its view of the ISR is stale. */
    INVALID_UPDATE_VERSION(95),
    /** No topic has the id the request names. */
    UNKNOWN_TOPIC_ID(100),
    /** A proposed ISR member is not live or is shutting down. */
    INELIGIBLE_REPLICA(107);

    private final short kafkaCode;

    ReplicationError(int kafkaCode) {
        this.kafkaCode = (short) kafkaCode;
    }

    /** Kafka's error code for this outcome ({@code org.apache.kafka.common.protocol.Errors#code()}). */
    public short kafkaCode() {
        return kafkaCode;
    }
}
