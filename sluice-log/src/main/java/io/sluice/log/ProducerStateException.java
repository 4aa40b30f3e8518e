package io.sluice.log;

/**
 * An idempotent producer's batch was refused: the append did not happen. Carries the Kafka error code the
 * producer expects.
 */
public final class ProducerStateException extends Exception {
    private static final long serialVersionUID = 1L;

    /** OUT_OF_ORDER_SEQUENCE_NUMBER: a sequence gap, or a new epoch not starting at 0. */
    public static final short OUT_OF_ORDER_SEQUENCE_NUMBER = 45;
    /** DUPLICATE_SEQUENCE_NUMBER: Kafka 3.9 never returns it for produce (see ProducerStateManager); kept for callers. */
    public static final short DUPLICATE_SEQUENCE_NUMBER = 46;
    /** INVALID_PRODUCER_EPOCH: the batch's epoch is older than the producer's current epoch. */
    public static final short INVALID_PRODUCER_EPOCH = 47;

    private final short errorCode;

    public ProducerStateException(short errorCode, String message) {
        super(message);
        this.errorCode = errorCode;
    }

    public short errorCode() {
        return errorCode;
    }
}
