package io.sluice.codec.compress;

/**
 * Compression formats of compressed fields and state streams; the id travels on the wire. Immutable.
 */
public enum Compression {
    /** Standard zlib stream (RFC 1950), JDK Deflater/Inflater. */
    ZLIB(1),
    /** Standard zstd frame with content checksum, zstd-jni. */
    ZSTD(2);

    private final int id;

    Compression(int id) {
        this.id = id;
    }

    public int id() {
        return id;
    }

    /** The compression with wire id {@code id}, or {@code null} if there is none. */
    public static Compression byId(long id) {
        if (id == ZLIB.id) {
            return ZLIB;
        }
        if (id == ZSTD.id) {
            return ZSTD;
        }
        return null;
    }
}
