package io.sluice.cluster.config;

import io.sluice.codec.compress.Compression;
import java.time.Duration;

/**
 * Every tunable of sluice-cluster, with its default and the reason for it. Immutable; safe to share.
 *
 * @param sessionTimeout      ZooKeeper session timeout (default 18 s, Kafka's zookeeper.session.timeout.ms: a broker
 *                            that stops heart-beating this long is removed and a paused controller is fenced)
 * @param connectionTimeout   how long to wait for the first connection (default 15 s)
 * @param partBytes           largest znode the state store writes, header included (default jute.maxbuffer minus
 *                            4 KiB: the multi() envelope, the version check and the path must fit beside a part)
 * @param maxSnapshotParts    parts of one snapshot a reader accepts (default 4096: 4 GB at the default part size,
 *                            far above any real cluster; stops forged manifests)
 * @param maxStateBytes       compressed bytes of one snapshot a reader accepts (default 256 MiB)
 * @param deltasPerSnapshot   fewest deltas between two snapshot folds (default 100); beyond it the controller folds
 *                            once the deltas weigh as much as the last snapshot (SnapshotPolicy), so a fold's cost
 *                            spread over the deltas stays at most one delta's size whatever the cluster's size
 * @param compression         compression of snapshots and deltas (default ZLIB: standard zlib stream, no native
 *                            library needed to read it back)
 * @param coalesceDelay       how long the controller waits after a membership event for more events before it
 *                            publishes one delta for all of them (default 20 ms: a mass join becomes a few deltas,
 *                            a single join is published at once)
 * @param uncleanLeaderElectionEnable     Kafka's unclean.leader.election.enable, the cluster default a topic config
 *                            of the same name overrides (default false: a partition whose in-sync replicas are all
 *                            gone stays offline rather than lose acknowledged records to an out-of-sync replica)
 * @param autoLeaderRebalanceEnable       Kafka's auto.leader.rebalance.enable (default true: leadership drifts away
 *                            from preferred replicas as brokers restart; moving it back keeps load spread)
 * @param leaderImbalanceCheckInterval    Kafka's leader.imbalance.check.interval.seconds (default 300 s: rebalancing
 *                            moves leaders and makes clients refresh metadata, so it runs seldom; ms in tests)
 * @param leaderImbalancePerBrokerPercentage Kafka's leader.imbalance.per.broker.percentage (default 10: a broker
 *                            whose preferred partitions are led elsewhere above this share gets them back)
 * @param controllerRetryDelay pause before the controller retries a take-over or a membership update that failed
 *                            (default 500 ms: ZooKeeper was busy or unreachable; brokers wait for the controller, so
 *                            the retry comes soon, yet a lost ZooKeeper is not hammered)
 */
public record ClusterConfig(
        Duration sessionTimeout,
        Duration connectionTimeout,
        int partBytes,
        int maxSnapshotParts,
        int maxStateBytes,
        int deltasPerSnapshot,
        Compression compression,
        Duration coalesceDelay,
        boolean uncleanLeaderElectionEnable,
        boolean autoLeaderRebalanceEnable,
        Duration leaderImbalanceCheckInterval,
        int leaderImbalancePerBrokerPercentage,
        Duration controllerRetryDelay) {

    /** ZooKeeper's own default for jute.maxbuffer (1 MiB - 1), used when the property is not set. */
    public static final int ZOOKEEPER_DEFAULT_MAX_BUFFER = 0xfffff;
    /** Room left in each znode write for the multi() envelope, the epoch check and the path. */
    public static final int PART_HEADROOM_BYTES = 4096;

    public ClusterConfig {
        if (sessionTimeout.isNegative() || sessionTimeout.isZero()) {
            throw new IllegalArgumentException("sessionTimeout must be > 0, was " + sessionTimeout);
        }
        if (partBytes < 1024) {
            throw new IllegalArgumentException("partBytes must be >= 1024, was " + partBytes);
        }
        if (maxSnapshotParts < 1 || maxStateBytes < 1) {
            throw new IllegalArgumentException("maxSnapshotParts and maxStateBytes must be > 0, were "
                    + maxSnapshotParts + " and " + maxStateBytes);
        }
        if (deltasPerSnapshot < 1) {
            throw new IllegalArgumentException("deltasPerSnapshot must be >= 1, was " + deltasPerSnapshot);
        }
        if (leaderImbalanceCheckInterval.isNegative() || leaderImbalanceCheckInterval.isZero()) {
            throw new IllegalArgumentException(
                    "leaderImbalanceCheckInterval must be > 0, was " + leaderImbalanceCheckInterval);
        }
        if (leaderImbalancePerBrokerPercentage < 0 || leaderImbalancePerBrokerPercentage > 100) {
            throw new IllegalArgumentException(
                    "leaderImbalancePerBrokerPercentage must be in 0..100, was " + leaderImbalancePerBrokerPercentage);
        }
        if (controllerRetryDelay.isNegative() || controllerRetryDelay.isZero()) {
            throw new IllegalArgumentException("controllerRetryDelay must be > 0, was " + controllerRetryDelay);
        }
    }

    /** The topic config naming whether a topic allows unclean leader election (Kafka's key). */
    public static final String UNCLEAN_LEADER_ELECTION_ENABLE = "unclean.leader.election.enable";

    /** Whether a topic with {@code topicConfigs} allows unclean leader election: its own setting, else the default. */
    public boolean uncleanLeaderElectionEnabled(java.util.Map<String, String> topicConfigs) {
        String v = topicConfigs.get(UNCLEAN_LEADER_ELECTION_ENABLE);
        return v == null ? uncleanLeaderElectionEnable : Boolean.parseBoolean(v.trim());
    }

    /**
     * Whether a topic allows unclean leader election: its own setting, else the cluster-wide dynamic default
     * ({@code clusterDefaults}, set by IncrementalAlterConfigs on the empty broker resource), else the static default.
     */
    public boolean uncleanLeaderElectionEnabled(
            java.util.Map<String, String> topicConfigs, java.util.Map<String, String> clusterDefaults) {
        String v = topicConfigs.get(UNCLEAN_LEADER_ELECTION_ENABLE);
        if (v == null) {
            v = clusterDefaults.get(UNCLEAN_LEADER_ELECTION_ENABLE);
        }
        return v == null ? uncleanLeaderElectionEnable : Boolean.parseBoolean(v.trim());
    }

    /** Defaults, with the part size derived from this JVM's jute.maxbuffer (the limit the client enforces). */
    public static ClusterConfig defaults() {
        return new ClusterConfig(
                Duration.ofSeconds(18),
                Duration.ofSeconds(15),
                juteMaxBuffer() - PART_HEADROOM_BYTES,
                4096,
                256 << 20,
                100,
                Compression.ZLIB,
                Duration.ofMillis(20),
                false,
                true,
                Duration.ofSeconds(300),
                10,
                Duration.ofMillis(500));
    }

    /** ZooKeeper's jute.maxbuffer as this JVM sees it. */
    public static int juteMaxBuffer() {
        return Integer.getInteger("jute.maxbuffer", ZOOKEEPER_DEFAULT_MAX_BUFFER);
    }

    public ClusterConfig withSessionTimeout(Duration value) {
        return with(c -> c.sessionTimeout = value);
    }

    public ClusterConfig withConnectionTimeout(Duration value) {
        return with(c -> c.connectionTimeout = value);
    }

    public ClusterConfig withPartBytes(int value) {
        return with(c -> c.partBytes = value);
    }

    public ClusterConfig withDeltasPerSnapshot(int value) {
        return with(c -> c.deltasPerSnapshot = value);
    }

    public ClusterConfig withCoalesceDelay(Duration value) {
        return with(c -> c.coalesceDelay = value);
    }

    public ClusterConfig withUncleanLeaderElectionEnable(boolean value) {
        return with(c -> c.uncleanLeaderElectionEnable = value);
    }

    public ClusterConfig withAutoLeaderRebalanceEnable(boolean value) {
        return with(c -> c.autoLeaderRebalanceEnable = value);
    }

    public ClusterConfig withLeaderImbalanceCheckInterval(Duration value) {
        return with(c -> c.leaderImbalanceCheckInterval = value);
    }

    public ClusterConfig withLeaderImbalancePerBrokerPercentage(int value) {
        return with(c -> c.leaderImbalancePerBrokerPercentage = value);
    }

    public ClusterConfig withControllerRetryDelay(Duration value) {
        return with(c -> c.controllerRetryDelay = value);
    }

    /** This config with {@code change} applied to a copy of its values. */
    private ClusterConfig with(java.util.function.Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return c.build();
    }

    /** A config's values, one changed by a {@code with*} method before it is built again. Not thread-safe. */
    private static final class Copy {
        Duration sessionTimeout;
        Duration connectionTimeout;
        int partBytes;
        final int maxSnapshotParts;
        final int maxStateBytes;
        int deltasPerSnapshot;
        final Compression compression;
        Duration coalesceDelay;
        boolean uncleanLeaderElectionEnable;
        boolean autoLeaderRebalanceEnable;
        Duration leaderImbalanceCheckInterval;
        int leaderImbalancePerBrokerPercentage;
        Duration controllerRetryDelay;

        Copy(ClusterConfig c) {
            sessionTimeout = c.sessionTimeout;
            connectionTimeout = c.connectionTimeout;
            partBytes = c.partBytes;
            maxSnapshotParts = c.maxSnapshotParts;
            maxStateBytes = c.maxStateBytes;
            deltasPerSnapshot = c.deltasPerSnapshot;
            compression = c.compression;
            coalesceDelay = c.coalesceDelay;
            uncleanLeaderElectionEnable = c.uncleanLeaderElectionEnable;
            autoLeaderRebalanceEnable = c.autoLeaderRebalanceEnable;
            leaderImbalanceCheckInterval = c.leaderImbalanceCheckInterval;
            leaderImbalancePerBrokerPercentage = c.leaderImbalancePerBrokerPercentage;
            controllerRetryDelay = c.controllerRetryDelay;
        }

        ClusterConfig build() {
            return new ClusterConfig(
                    sessionTimeout,
                    connectionTimeout,
                    partBytes,
                    maxSnapshotParts,
                    maxStateBytes,
                    deltasPerSnapshot,
                    compression,
                    coalesceDelay,
                    uncleanLeaderElectionEnable,
                    autoLeaderRebalanceEnable,
                    leaderImbalanceCheckInterval,
                    leaderImbalancePerBrokerPercentage,
                    controllerRetryDelay);
        }
    }
}
