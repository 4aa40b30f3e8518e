package io.sluice.cli.produce;

import java.util.Arrays;

/**
 * Splits an input line into key and value like kcat -P: with a key delimiter the key is what
 * precedes its first occurrence (no occurrence: null key, whole line as value); without one the
 * key is the fixed key, if any. With {@code emptyAsNull} (kcat -Z) empty keys and values are
 * sent as null. Immutable; thread-safe.
 */
public final class LineRecordParser {
    private final byte[] keyDelimiter;
    private final byte[] fixedKey;
    private final boolean emptyAsNull;

    /**
     * @param keyDelimiter bytes between key and value, or null for value-only lines
     * @param fixedKey     key of every record when there is no delimiter, or null
     * @param emptyAsNull  send empty keys and values as null
     */
    public LineRecordParser(byte[] keyDelimiter, byte[] fixedKey, boolean emptyAsNull) {
        if (keyDelimiter != null && keyDelimiter.length == 0) {
            throw new IllegalArgumentException("-K key delimiter must not be empty");
        }
        this.keyDelimiter = keyDelimiter == null ? null : keyDelimiter.clone();
        this.fixedKey = fixedKey == null ? null : fixedKey.clone();
        this.emptyAsNull = emptyAsNull;
    }

    /** Parses {@code line[0, length)}, copying the parts it returns. */
    public LineRecord parse(byte[] line, int length) {
        if (keyDelimiter == null) {
            return new LineRecord(nullIfEmpty(fixedKey), nullIfEmpty(Arrays.copyOf(line, length)));
        }
        int at = indexOf(line, length, keyDelimiter);
        if (at < 0) {
            return new LineRecord(null, nullIfEmpty(Arrays.copyOf(line, length)));
        }
        byte[] key = Arrays.copyOfRange(line, 0, at);
        byte[] value = Arrays.copyOfRange(line, at + keyDelimiter.length, length);
        return new LineRecord(nullIfEmpty(key), nullIfEmpty(value));
    }

    private byte[] nullIfEmpty(byte[] bytes) {
        return emptyAsNull && bytes != null && bytes.length == 0 ? null : bytes;
    }

    static int indexOf(byte[] haystack, int length, byte[] needle) {
        outer:
        for (int start = 0; start + needle.length <= length; start++) {
            for (int i = 0; i < needle.length; i++) {
                if (haystack[start + i] != needle[i]) {
                    continue outer;
                }
            }
            return start;
        }
        return -1;
    }
}
