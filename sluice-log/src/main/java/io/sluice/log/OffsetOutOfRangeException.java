package io.sluice.log;

/** A read asked for an offset outside [logStartOffset, logEndOffset]; maps to OFFSET_OUT_OF_RANGE (1). */
public final class OffsetOutOfRangeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Kafka's error code OFFSET_OUT_OF_RANGE. */
    public static final short ERROR_CODE = 1;

    private final long requestedOffset;
    private final long logStartOffset;
    private final long logEndOffset;

    public OffsetOutOfRangeException(String partition, long requestedOffset, long logStartOffset, long logEndOffset) {
        super("fetch offset " + requestedOffset + " is out of range for " + partition + ": log start offset "
                + logStartOffset + ", log end offset " + logEndOffset);
        this.requestedOffset = requestedOffset;
        this.logStartOffset = logStartOffset;
        this.logEndOffset = logEndOffset;
    }

    public long requestedOffset() {
        return requestedOffset;
    }

    public long logStartOffset() {
        return logStartOffset;
    }

    public long logEndOffset() {
        return logEndOffset;
    }
}
