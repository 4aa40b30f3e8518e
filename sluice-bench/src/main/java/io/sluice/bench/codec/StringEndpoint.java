package io.sluice.bench.codec;

import io.sluice.codec.endpoint.SeededHash;
import java.nio.charset.StandardCharsets;

/**
 * The String-hostname variant of an endpoint for benchmark 4: host decoded to a String on receipt, bytes produced
 * again with {@code getBytes} whenever a hash is needed (as Rapid did before its PR #19). Immutable.
 */
public record StringEndpoint(String host, int port) implements Comparable<StringEndpoint> {

    public long seededHash(long seed) {
        return SeededHash.seeded(SeededHash.base(host.getBytes(StandardCharsets.UTF_8), port), seed);
    }

    @Override
    public int compareTo(StringEndpoint o) {
        int c = host.compareTo(o.host);
        return c != 0 ? c : Integer.compare(port, o.port);
    }
}
