package io.sluice.broker.move;

/**
 * Layout of the {@code manifest} file in a move's staging directory: the source's segment list (which also holds the
 * transfer id), so a restarted target resumes the same transfer. Stateless.
 *
 * <pre>
 *   0  length   int32   bytes of the message
 *   4  crc32c   int32   CRC-32C of the message bytes
 *   8  message  a {@link MoveSegmentList}, codec-encoded
 * </pre>
 */
final class StagingManifestDescriptor {
    static final int LENGTH_OFFSET = 0;
    static final int LENGTH_LENGTH = Integer.BYTES;
    static final int CRC_OFFSET = LENGTH_OFFSET + LENGTH_LENGTH;
    static final int CRC_LENGTH = Integer.BYTES;
    static final int MESSAGE_OFFSET = CRC_OFFSET + CRC_LENGTH;
    /** A manifest larger than a response header could be is garbage. */
    static final int MAX_MESSAGE_BYTES = MoveFrameDescriptor.MAX_RESPONSE_HEADER_BYTES;

    private StagingManifestDescriptor() {}
}
