package io.sluice.record.batch;

import static io.sluice.record.batch.BatchFormatException.malformed;

/**
 * The length checks of {@link RecordCursor}'s careful path, each failing with a
 * {@link BatchFormatException} ({@link BatchFormatException.Reason#MALFORMED_RECORD}) whose message
 * names the field and the values seen: the careful path is the one that reads every bad record,
 * whatever the fast paths gave up on.
 *
 * <p>Stateless; thread-safe.
 */
final class CarefulChecks {

    private CarefulChecks() {}

    /** Fails when a record's {@code length} is below {@code minimum}, the fewest bytes its fields take. */
    static void recordLength(int length, int minimum) throws BatchFormatException {
        if (length < minimum) {
            throw malformed("record length " + length + " is below the minimum of " + minimum);
        }
    }

    /**
     * Skips a key, value or header field of {@code length} bytes (-1 for null where
     * {@code nullable}) in {@code window}, failing when the length is below what is allowed or
     * runs past {@code recordEnd} (a stream position).
     */
    static void skipField(ByteWindow window, String field, int length, boolean nullable, long recordEnd)
            throws BatchFormatException {
        if (length < (nullable ? -1 : 0)) {
            throw malformed(field + " length " + length + " is below " + (nullable ? "-1" : "0"));
        }
        if (length <= 0) {
            return;
        }
        long left = recordEnd - window.streamPosition();
        if (length > left) {
            throw malformed(field + " length " + length + " exceeds the " + left + " bytes left in the record");
        }
        window.skip(length);
    }

    /** Fails when {@code headerCount} is negative or above the {@code bytesLeft} in the record (a header takes one). */
    static void headerCount(int headerCount, long bytesLeft) throws BatchFormatException {
        if (headerCount < 0 || headerCount > bytesLeft) {
            throw malformed("header count " + headerCount + " is negative or above the " + bytesLeft
                    + " bytes left in the record");
        }
    }

    /** Fails when the record's fields took {@code read} bytes, not the {@code length} it declared. */
    static void fieldsTakeLength(int length, long read) throws BatchFormatException {
        if (read != length) {
            throw malformed("record length " + length + " does not match the " + read + " bytes its fields take");
        }
    }
}
