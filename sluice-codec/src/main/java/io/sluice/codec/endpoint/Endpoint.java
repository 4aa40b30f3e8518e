package io.sluice.codec.endpoint;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A node address: host as bytes plus port. The hash (and the 64-bit base of the seeded ring hashes) is computed
 * once; equality and order are byte-wise, so membership structures never decode a host name. Strings appear only at
 * the edges ({@link #of}, {@link #parse}, {@link #host()}, {@link #toString()}). Immutable; safe to share.
 */
public final class Endpoint implements Comparable<Endpoint> {
    /** DNS names are at most 253 characters; one length byte covers every real host. */
    public static final int MAX_HOST_BYTES = 255;

    public static final int MAX_PORT = 65535;

    private final byte[] host;
    private final int port;
    private final int hash;
    /** 64-bit base of {@link #seededHash}, computed once. */
    private final long baseHash;

    private Endpoint(byte[] host, int port) {
        if (host.length == 0 || host.length > MAX_HOST_BYTES) {
            throw new IllegalArgumentException("endpoint host length " + host.length + " outside 1.." + MAX_HOST_BYTES);
        }
        if (port < 0 || port > MAX_PORT) {
            throw new IllegalArgumentException("endpoint port " + port + " outside 0.." + MAX_PORT);
        }
        this.host = host;
        this.port = port;
        this.baseHash = SeededHash.base(host, port);
        this.hash = (int) (baseHash ^ (baseHash >>> 32));
    }

    /** From a configured host name (edge); the name is stored as its UTF-8 bytes. */
    public static Endpoint of(String host, int port) {
        return new Endpoint(host.getBytes(StandardCharsets.UTF_8), port);
    }

    /** Parses {@code host:port} or {@code [ipv6]:port} (edge). */
    public static Endpoint parse(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IllegalArgumentException("endpoint '" + hostPort + "' is not host:port");
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("endpoint '" + hostPort + "' has a non-numeric port", e);
        }
        return of(host, port);
    }

    /** Copies {@code len} host bytes from {@code src}. */
    public static Endpoint copyOf(byte[] src, int off, int len, int port) {
        return new Endpoint(Arrays.copyOfRange(src, off, off + len), port);
    }

    /** Takes ownership of {@code host}: the caller must not modify it afterwards (used by decoders, no copy). */
    public static Endpoint adopt(byte[] host, int port) {
        return new Endpoint(host, port);
    }

    public int port() {
        return port;
    }

    public int hostLength() {
        return host.length;
    }

    /** The host bytes themselves, for encoders; must not be modified. */
    public byte[] hostBytesView() {
        return host;
    }

    /** Host as a string (edge: logging, connecting). */
    public String host() {
        return new String(host, StandardCharsets.UTF_8);
    }

    /** The 64-bit hash of host bytes and port that every {@link #seededHash} is derived from (computed once). */
    public long baseHash() {
        return baseHash;
    }

    /** A 64-bit hash of host bytes and port under {@code seed}; different seeds give independent orders. */
    public long seededHash(long seed) {
        return SeededHash.seeded(baseHash, seed);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        return o instanceof Endpoint other
                && other.hash == hash
                && other.port == port
                && Arrays.equals(other.host, host);
    }

    /** Unsigned byte-wise order of hosts, then port. */
    @Override
    public int compareTo(Endpoint o) {
        int c = Arrays.compareUnsigned(host, o.host);
        return c != 0 ? c : Integer.compare(port, o.port);
    }

    @Override
    public String toString() {
        String h = host();
        return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + port;
    }
}
