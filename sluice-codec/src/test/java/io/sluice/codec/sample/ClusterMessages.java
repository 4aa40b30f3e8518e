package io.sluice.codec.sample;

import io.sluice.codec.message.MessageRegistry;

/**
 * Type ids and the registry of the cluster's broker-to-broker messages. Ids are never reused; a new field is a new
 * schema version appended at the end of the message. Stateless; {@link #REGISTRY} is immutable.
 */
public final class ClusterMessages {
    public static final int PARTITION_STATE = 1;
    public static final int PARTITION_STATE_LIST = 2;
    public static final int PARTITION_STATE_REPORT = 3;
    public static final int PARTITION_ASSIGNMENT = 4;
    public static final int PARTITION_MAP = 5;
    public static final int FULL_PARTITION_MAP = 6;
    public static final int START_MOVE = 10;
    public static final int MOVE_CHUNK_HEADER = 11;
    public static final int MOVE_CHUNK_ACK = 12;
    public static final int MOVE_COMPLETE = 13;
    public static final int MOVE_ABORT = 14;

    public static final MessageRegistry REGISTRY = MessageRegistry.builder()
            .register(PARTITION_STATE, "PartitionState", PartitionState.CURRENT_VERSION, PartitionState::new)
            .register(PARTITION_STATE_LIST, "PartitionStateList", 0, PartitionStateList::new)
            .register(PARTITION_STATE_REPORT, "PartitionStateReport", 0, PartitionStateReport::new)
            .register(PARTITION_ASSIGNMENT, "PartitionAssignment", 0, PartitionAssignment::new)
            .register(PARTITION_MAP, "PartitionMap", 0, PartitionMap::new)
            .register(FULL_PARTITION_MAP, "FullPartitionMap", 0, FullPartitionMap::new)
            .register(START_MOVE, "StartMove", 0, StartMove::new)
            .register(MOVE_CHUNK_HEADER, "MoveChunkHeader", 0, MoveChunkHeader::new)
            .register(MOVE_CHUNK_ACK, "MoveChunkAck", 0, MoveChunkAck::new)
            .register(MOVE_COMPLETE, "MoveComplete", 0, MoveComplete::new)
            .register(MOVE_ABORT, "MoveAbort", 0, MoveAbort::new)
            .build();

    private ClusterMessages() {}
}
