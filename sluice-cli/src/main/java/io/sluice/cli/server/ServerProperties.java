package io.sluice.cli.server;

import io.sluice.broker.config.BrokerConfigKeys;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Builds the broker's key/value map from a Kafka-style server.properties and the command-line
 * flags: file, then --data-dir and --listen, then each --override (last wins).
 * Stateless; thread-safe.
 */
public final class ServerProperties {

    private ServerProperties() {}

    /**
     * @param file      a server.properties file, or null
     * @param dataDir   becomes log.dirs (and hides log.dir), or null
     * @param listen    HOST:PORT (or [IPv6]:PORT) that becomes listeners=PLAINTEXT://HOST:PORT, or null
     * @param overrides KEY=VALUE pairs applied last
     * @throws IOException              when the file cannot be read
     * @throws IllegalArgumentException when --listen is not HOST:PORT
     */
    public static Map<String, String> build(Path file, Path dataDir, String listen, Map<String, String> overrides)
            throws IOException {
        Map<String, String> props = new TreeMap<>();
        if (file != null) {
            props.putAll(load(file));
        }
        if (dataDir != null) {
            props.remove(BrokerConfigKeys.LOG_DIR);
            props.put(BrokerConfigKeys.LOG_DIRS, dataDir.toString());
        }
        if (listen != null) {
            props.put(BrokerConfigKeys.LISTENERS, listenerFor(listen));
        }
        props.putAll(overrides);
        return props;
    }

    /** Reads a .properties file (Kafka's own format: java.util.Properties, UTF-8). */
    public static Map<String, String> load(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        Map<String, String> map = new TreeMap<>();
        for (String name : properties.stringPropertyNames()) {
            map.put(name, properties.getProperty(name));
        }
        return map;
    }

    /** PLAINTEXT://HOST:PORT for --listen HOST:PORT; the broker configuration validates host and port. */
    static String listenerFor(String listen) {
        int colon = listen.lastIndexOf(':');
        if (colon < 0 || colon == listen.length() - 1 || listen.contains("://")) {
            throw new IllegalArgumentException(
                    "--listen expects HOST:PORT (e.g. 127.0.0.1:9092 or [::1]:9092), got '" + listen + "'");
        }
        return "PLAINTEXT://" + listen;
    }
}
