package io.sluice.cluster.identity;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Properties;

/**
 * The identity a broker's data belongs to: the cluster id and the broker id, recorded in a
 * {@code meta.properties} file in every log directory (the file Kafka operators know). A log
 * directory written by another broker or another cluster is refused at start, so data is never
 * mixed up.
 *
 * <p>Immutable; {@link #loadOrCreate} is not safe against a second process on the same directories
 * (the log directory lock guards that).
 */
public record BrokerIdentity(String clusterId, int brokerId) {
    public static final String FILE_NAME = "meta.properties";
    private static final String CLUSTER_ID_KEY = "cluster.id";
    private static final String BROKER_ID_KEY = "broker.id";
    private static final String VERSION_KEY = "version";
    private static final String VERSION = "0";
    private static final int CLUSTER_ID_BYTES = 16;

    /**
     * Reads the identity recorded in the log directories, checks it agrees with the configured broker
     * id and cluster id (if one is configured), and records it where it is missing.
     *
     * @throws IdentityMismatchException when a directory belongs to another broker or cluster
     */
    public static BrokerIdentity loadOrCreate(List<Path> logDirs, int brokerId, String configuredClusterId)
            throws IOException {
        String clusterId = configuredClusterId;
        for (Path dir : logDirs) {
            Path file = dir.resolve(FILE_NAME);
            if (!Files.exists(file)) {
                continue;
            }
            Properties props = read(file);
            String storedCluster = props.getProperty(CLUSTER_ID_KEY);
            String storedBroker = props.getProperty(BROKER_ID_KEY);
            if (storedCluster == null || storedBroker == null) {
                throw new IdentityMismatchException(file + " lacks " + CLUSTER_ID_KEY + " or " + BROKER_ID_KEY);
            }
            if (!storedBroker.equals(Integer.toString(brokerId))) {
                throw new IdentityMismatchException(file + " belongs to broker.id " + storedBroker
                        + ", but this broker is configured with broker.id " + brokerId);
            }
            if (clusterId != null && !clusterId.equals(storedCluster)) {
                throw new IdentityMismatchException(file + " belongs to cluster " + storedCluster
                        + ", but this broker expects cluster " + clusterId);
            }
            clusterId = storedCluster;
        }
        if (clusterId == null) {
            clusterId = newClusterId();
        }
        BrokerIdentity identity = new BrokerIdentity(clusterId, brokerId);
        for (Path dir : logDirs) {
            Files.createDirectories(dir);
            Path file = dir.resolve(FILE_NAME);
            if (!Files.exists(file)) {
                identity.write(file);
            }
        }
        return identity;
    }

    /** The cluster id recorded in the first log directory that has a meta.properties, empty when none has. */
    public static java.util.Optional<String> storedClusterId(List<Path> logDirs) throws IOException {
        for (Path dir : logDirs) {
            Path file = dir.resolve(FILE_NAME);
            if (Files.exists(file)) {
                String stored = read(file).getProperty(CLUSTER_ID_KEY);
                if (stored != null) {
                    return java.util.Optional.of(stored);
                }
            }
        }
        return java.util.Optional.empty();
    }

    /** A random 16-byte id in URL-safe base64 without padding, the form Kafka uses for cluster ids. */
    public static String newClusterId() {
        byte[] bytes = new byte[CLUSTER_ID_BYTES];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private void write(Path file) throws IOException {
        Properties props = new Properties();
        props.setProperty(VERSION_KEY, VERSION);
        props.setProperty(CLUSTER_ID_KEY, clusterId);
        props.setProperty(BROKER_ID_KEY, Integer.toString(brokerId));
        Path tmp = file.resolveSibling(FILE_NAME + ".tmp");
        try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            props.store(out, "Sluice broker identity; do not edit");
        }
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static Properties read(Path file) throws IOException {
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(in);
        } catch (IllegalArgumentException e) {
            throw new IdentityMismatchException(file + " is not a valid properties file: " + e.getMessage());
        }
        return props;
    }

    /** A log directory holds another broker's or another cluster's data, or an unreadable identity. */
    public static final class IdentityMismatchException extends IOException {
        private static final long serialVersionUID = 1L;

        public IdentityMismatchException(String message) {
            super(message);
        }
    }
}
