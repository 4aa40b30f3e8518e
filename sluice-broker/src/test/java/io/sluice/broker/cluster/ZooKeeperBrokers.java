package io.sluice.broker.cluster;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.cluster.zk.EmbeddedZooKeeper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Brokers of one cluster in the test's JVM: an embedded ZooKeeper (chroot {@code /<name>}) and each broker's data
 * under {@code dir/broker-<id>}, on ephemeral ports. Not thread-safe; {@link #close()} stops only ZooKeeper (the
 * test closes its brokers first).
 */
public final class ZooKeeperBrokers implements AutoCloseable {
    private final Path dir;
    private final String chroot;
    private final EmbeddedZooKeeper zk;

    public ZooKeeperBrokers(Path dir, String name) throws IOException {
        this.dir = dir;
        this.chroot = "/" + name;
        this.zk = EmbeddedZooKeeper.start(dir.resolve("zk"));
    }

    /** The configuration of broker {@code id} with its data in {@code dataDir}, before any override. */
    public Map<String, String> config(int id, Path dataDir) {
        Map<String, String> props = new HashMap<>();
        props.put("broker.id", Integer.toString(id));
        props.put("log.dirs", dataDir.toString());
        props.put("listeners", "PLAINTEXT://127.0.0.1:0");
        props.put("zookeeper.connect", zk.connectString() + chroot);
        props.put("zookeeper.session.timeout.ms", "6000");
        // The last broker of a stopping cluster has nobody to hand its leaderships to: with Kafka's 5 s backoff its
        // controlled shutdown retries for 15 s (ProcessCluster sets the same for brokers in their own JVMs).
        props.put("controlled.shutdown.retry.backoff.ms", "500");
        return props;
    }

    public Path dataDir(int id) {
        return dir.resolve("broker-" + id);
    }

    /** Starts broker {@code id} (again, after a stop: same data directory). */
    public SluiceBroker start(int id, Map<String, String> overrides) throws IOException {
        Map<String, String> props = config(id, dataDir(id));
        props.putAll(overrides);
        return SluiceBroker.start(BrokerConfig.fromMap(props));
    }

    @Override
    public void close() {
        zk.close();
    }
}
