package io.sluice.cli.consume;

/**
 * Where consumption starts, parsed from kcat's -o forms: {@code beginning}, {@code end}, an
 * absolute offset {@code N}, {@code -N} (N before the end) or {@code s@TIMESTAMP_MS}.
 * Immutable; thread-safe.
 *
 * @param kind  which form
 * @param value the offset, the distance from the end, or the timestamp; 0 for beginning/end
 */
public record StartOffset(Kind kind, long value) {
    private static final String TIMESTAMP_PREFIX = "s@";

    public enum Kind {
        BEGINNING,
        END,
        ABSOLUTE,
        FROM_END,
        TIMESTAMP
    }

    /** @throws IllegalArgumentException naming -o and the text when it is none of the forms */
    public static StartOffset parse(String text) {
        String trimmed = text.trim();
        if (trimmed.equals("beginning")) {
            return new StartOffset(Kind.BEGINNING, 0);
        }
        if (trimmed.equals("end")) {
            return new StartOffset(Kind.END, 0);
        }
        try {
            if (trimmed.startsWith(TIMESTAMP_PREFIX)) {
                return new StartOffset(Kind.TIMESTAMP, nonNegative(text, trimmed.substring(TIMESTAMP_PREFIX.length())));
            }
            if (trimmed.startsWith("-")) {
                return new StartOffset(Kind.FROM_END, nonNegative(text, trimmed.substring(1)));
            }
            return new StartOffset(Kind.ABSOLUTE, nonNegative(text, trimmed));
        } catch (NumberFormatException e) {
            throw invalid(text);
        }
    }

    /** The offset to seek to, given the partition's log start and end offsets. */
    public long resolve(long logStartOffset, long logEndOffset) {
        return switch (kind) {
            case BEGINNING -> logStartOffset;
            case END -> logEndOffset;
            case ABSOLUTE -> value;
            case FROM_END -> Math.max(logStartOffset, logEndOffset - value);
            case TIMESTAMP -> throw new IllegalStateException("timestamps resolve through ListOffsets");
        };
    }

    private static long nonNegative(String text, String digits) {
        long number = Long.parseLong(digits);
        if (number < 0 || digits.startsWith("+")) {
            throw invalid(text);
        }
        return number;
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException(
                "-o expects beginning, end, OFFSET, -N or s@TIMESTAMP_MS, got '" + text + "'");
    }
}
