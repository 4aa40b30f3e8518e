package io.sluice.codec.message;

/**
 * UTF-8 encoding into a writer's reused scratch, without the intermediate array of {@code String.getBytes}.
 * Stateless.
 */
final class Utf8 {
    private Utf8() {}

    /** Encodes {@code s} into {@code w.textScratch}; returns the byte length. Lone surrogates become '?'. */
    static int encode(String s, FieldWriter w) {
        int n = s.length();
        byte[] dst = w.textScratch(n * 3);
        int p = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                dst[p++] = (byte) c;
            } else if (c < 0x800) {
                dst[p++] = (byte) (0xC0 | (c >> 6));
                dst[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                dst[p++] = (byte) (0xF0 | (cp >> 18));
                dst[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                dst[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                dst[p++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                dst[p++] = (byte) '?';
            } else {
                dst[p++] = (byte) (0xE0 | (c >> 12));
                dst[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                dst[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return p;
    }
}
