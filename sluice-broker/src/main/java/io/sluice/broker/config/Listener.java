package io.sluice.broker.config;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One listener: a name (PLAINTEXT unless mapped by listener.security.protocol.map), a host
 * (empty = all interfaces) and a port (0 = ephemeral). Immutable; thread-safe.
 *
 * @param name listener name as written, upper-cased
 * @param host host name or address; empty for the wildcard address; IPv6 without brackets
 * @param port 0 to 65535
 */
public record Listener(String name, String host, int port) {

    private static final String SEPARATOR = "://";
    private static final int MAX_PORT = 65535;
    private static final List<String> SUPPORTED_PROTOCOLS = List.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");

    /** The address to bind; an empty host binds every interface. */
    public InetSocketAddress socketAddress() {
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    /** The listener with another port (e.g. the bound one after binding port 0). */
    public Listener withPort(int boundPort) {
        return new Listener(name, host, boundPort);
    }

    /** NAME://HOST:PORT, with brackets around IPv6 hosts. */
    @Override
    public String toString() {
        String shownHost = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return name + SEPARATOR + shownHost + ":" + port;
    }

    /**
     * Parses a listeners list; each must map to a supported security protocol through {@code protocolByName}.
     *
     * @throws ConfigException naming {@code key} on a malformed entry, a duplicate name or a
     *                         security protocol Sluice does not implement
     */
    static List<Listener> parseAll(String key, List<String> entries, Map<String, String> protocolByName) {
        List<Listener> listeners = new ArrayList<>(entries.size());
        Set<String> names = new HashSet<>();
        for (String entry : entries) {
            Listener listener = parse(key, entry);
            String protocol = protocolByName.get(listener.name());
            if (protocol == null) {
                throw new ConfigException(
                        key,
                        entry,
                        "listener name " + listener.name() + " is not in listener.security.protocol.map "
                                + protocolByName.keySet());
            }
            if (!SUPPORTED_PROTOCOLS.contains(protocol)) {
                throw new ConfigException(
                        key,
                        entry,
                        "security protocol " + protocol + " is not supported; use one of " + SUPPORTED_PROTOCOLS);
            }
            if (!names.add(listener.name())) {
                throw new ConfigException(
                        key, String.join(",", entries), "listener name " + listener.name() + " appears twice");
            }
            listeners.add(listener);
        }
        return List.copyOf(listeners);
    }

    static Listener parse(String key, String entry) {
        int separator = entry.indexOf(SEPARATOR);
        if (separator <= 0) {
            throw new ConfigException(key, entry, "expected NAME://HOST:PORT, e.g. PLAINTEXT://127.0.0.1:9092");
        }
        String name = entry.substring(0, separator).toUpperCase(Locale.ROOT);
        String hostPort = entry.substring(separator + SEPARATOR.length());
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0) {
            throw new ConfigException(key, entry, "missing :PORT; expected NAME://HOST:PORT");
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0) {
            throw new ConfigException(key, entry, "IPv6 hosts must be in brackets, e.g. PLAINTEXT://[::1]:9092");
        }
        String portText = hostPort.substring(colon + 1);
        int port;
        try {
            port = Integer.parseInt(portText);
        } catch (NumberFormatException e) {
            throw new ConfigException(key, entry, "port '" + portText + "' is not a number");
        }
        if (port < 0 || port > MAX_PORT) {
            throw new ConfigException(key, entry, "port " + port + " is outside 0.." + MAX_PORT);
        }
        return new Listener(name, host, port);
    }

    /** Parses listener.security.protocol.map ("NAME:PROTOCOL,..."), upper-casing both sides. */
    static Map<String, String> parseProtocolMap(String key, String text) {
        Map<String, String> map = new java.util.LinkedHashMap<>();
        for (String pair : text.split(",")) {
            String trimmed = pair.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            int colon = trimmed.indexOf(':');
            if (colon <= 0 || colon == trimmed.length() - 1) {
                throw new ConfigException(key, text, "entry '" + trimmed + "' is not NAME:PROTOCOL");
            }
            map.put(
                    trimmed.substring(0, colon).trim().toUpperCase(Locale.ROOT),
                    trimmed.substring(colon + 1).trim().toUpperCase(Locale.ROOT));
        }
        return Map.copyOf(map);
    }
}
