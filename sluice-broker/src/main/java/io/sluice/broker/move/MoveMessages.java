package io.sluice.broker.move;

import io.sluice.codec.message.MessageRegistry;

/**
 * Type ids and the registry of the partition-move messages (their own registry: these never travel with cluster
 * state). Immutable; thread-safe.
 */
public final class MoveMessages {
    public static final int OPEN_REQUEST = 1;
    public static final int SEGMENT_LIST = 2;
    public static final int CHUNK_REQUEST = 3;
    public static final int CHUNK_HEADER = 4;
    public static final int CLOSE_REQUEST = 5;
    public static final int CLOSE_RESPONSE = 6;

    public static final MessageRegistry REGISTRY = MessageRegistry.builder()
            .register(OPEN_REQUEST, "MoveOpenRequest", 0, MoveOpenRequest::new)
            .register(SEGMENT_LIST, "MoveSegmentList", 0, MoveSegmentList::new)
            .register(CHUNK_REQUEST, "MoveChunkRequest", 0, MoveChunkRequest::new)
            .register(CHUNK_HEADER, "MoveChunkHeader", 0, MoveChunkHeader::new)
            .register(CLOSE_REQUEST, "MoveCloseRequest", 0, MoveCloseRequest::new)
            .register(CLOSE_RESPONSE, "MoveCloseResponse", 0, MoveCloseResponse::new)
            .build();

    /** {@link MoveChunkRequest#fileKind} of a segment's {@code .log} file. */
    public static final byte FILE_SEGMENT = 0;
    /** {@link MoveChunkRequest#fileKind} of the producer snapshot. */
    public static final byte FILE_PRODUCER_SNAPSHOT = 1;

    private MoveMessages() {}
}
