package io.sluice.cli.cluster;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.cluster.ClusterMembership;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.cli.CommandFailedException;
import io.sluice.cli.server.ServerProperties;
import io.sluice.cluster.zk.ConnectString;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Which ZooKeeper a cluster command talks to: {@code --zookeeper} as given, or else the broker configuration's
 * {@code zookeeper.connect}, or else (a broker running its embedded ZooKeeper) the connect string that broker wrote
 * into {@code <log.dirs[0]>/.sluice-metadata/zookeeper.connect}. Stateless; thread-safe.
 */
public final class ZooKeeperTarget {
    /** Longest embedded connect file read; a real one is one short line. */
    private static final long MAX_CONNECT_FILE_BYTES = 4096;

    private ZooKeeperTarget() {}

    /**
     * @param zookeeper  the --zookeeper value, or null
     * @param configFile a server.properties, or null (the broker defaults then, as {@code sluice server} uses them)
     * @param overrides  KEY=VALUE pairs applied over the file
     * @return a validated connect string, {@code host:port[,host:port...][/chroot]}
     * @throws IllegalArgumentException when a connect string is malformed or the configuration is invalid
     * @throws CommandFailedException   when the broker uses an embedded ZooKeeper whose connect file is missing
     */
    public static String resolve(String zookeeper, Path configFile, Map<String, String> overrides) throws IOException {
        if (zookeeper != null) {
            ConnectString.parse(zookeeper);
            return zookeeper.trim();
        }
        BrokerConfig config = BrokerConfig.fromMap(ServerProperties.build(configFile, null, null, overrides));
        if (config.zookeeperConnect().isPresent()) {
            String connect = config.zookeeperConnect().get();
            ConnectString.parse(connect);
            return connect.trim();
        }
        return readEmbeddedConnectFile(embeddedConnectFile(config));
    }

    /** Where a broker with this configuration writes the connect string of its embedded ZooKeeper. */
    public static Path embeddedConnectFile(BrokerConfig config) {
        return config.logDirs()
                .get(0)
                .resolve(SluiceBroker.METADATA_DIR)
                .resolve(ClusterMembership.EMBEDDED_CONNECT_FILE);
    }

    static String readEmbeddedConnectFile(Path file) throws IOException {
        String text;
        try {
            if (Files.size(file) > MAX_CONNECT_FILE_BYTES) {
                throw new CommandFailedException(file + " is " + Files.size(file) + " bytes, not a connect string"
                        + " (at most " + MAX_CONNECT_FILE_BYTES + ")");
            }
            text = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            throw new CommandFailedException("no zookeeper.connect configured and no embedded ZooKeeper connect file "
                    + file + " (start the broker first, or give --zookeeper HOST:PORT)");
        }
        try {
            ConnectString.parse(text);
        } catch (IllegalArgumentException e) {
            throw new CommandFailedException(file + ": " + e.getMessage());
        }
        return text;
    }
}
