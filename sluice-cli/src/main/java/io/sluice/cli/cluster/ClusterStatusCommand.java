package io.sluice.cli.cluster;

import io.sluice.cli.CommandFailedException;
import io.sluice.cli.client.KeyValue;
import io.sluice.cli.partition.MoveProgress;
import io.sluice.cli.partition.MoveProgressFormat;
import io.sluice.cli.partition.MoveProgressReader;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.BrokerInfo;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.TopicState;
import io.sluice.cluster.status.ClusterStatus;
import io.sluice.cluster.status.ClusterStatusException;
import io.sluice.cluster.status.ClusterStatusReader;
import io.sluice.codec.endpoint.Endpoint;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice cluster status}: reads the cluster from ZooKeeper (never writes) and prints it in the format of
 * {@link ClusterStatusFormat}. Not thread-safe; one per invocation.
 */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpWidth = 120,
        description = {
            "Show the cluster as ZooKeeper holds it: cluster id, controller and epoch, brokers with the "
                    + "partitions each leads and hosts, offline partitions, totals.",
            "While partitions move, it also asks the brokers (--bootstrap-server, else the live ones) how far each "
                    + "move is: phase, bytes shipped of total, rate and ETA over --progress-interval-ms.",
            "Reads only. Without --zookeeper it uses the broker configuration (--config, --override, else the "
                    + "defaults): its zookeeper.connect, else the embedded ZooKeeper that broker runs (the connect string "
                    + "it wrote under <log.dirs>/.sluice-metadata/)."
        },
        footer = {
            "",
            "Output: one line per record, fields as 'Name: value' separated by tabs:",
            "  ClusterId: <id or ->",
            "  Controller: <id or none>\\tEpoch: <n>\\tRegistered: yes|no",
            "  StateSeq: <applied seq>\\tPublishedSeq: <newest seq in ZooKeeper>",
            "  Topics: <n>\\tPartitions: <n>\\tOfflinePartitions: <n>\\tUnderReplicatedPartitions: <n>\\tLiveBrokers: <n>"
                    + "\\tReassigningPartitions: <n>",
            "  Broker: <id>\\tEndpoint: <host:port or ->\\tRack: <rack or ->\\tLive: yes|no\\tRegistered: yes|no"
                    + "\\tLeads: <n>\\tHosts: <n>",
            "  OfflinePartition: <topic>-<partition>\\tReplicas: <id,id...>",
            "  UnderReplicatedPartition: <topic>-<partition>\\tLeader: <id>\\tReplicas: <id,id...>\\tIsr: <id,id...>",
            "  ReassigningPartition: <topic>-<partition>\\tLeader: <id>\\tReplicas: <id,id...>\\tAdding: <id,...>"
                    + "\\tRemoving: <id,...>\\tIsr: <id,id...>[\\tPhase: copying|catch-up|switching"
                    + "\\tShipped: <MB>/<MB> MB\\tProgress: <n>%\\tRate: <MB/s or ->\\tEta: <n>s or -]",
            "Live: in the state the controller published; Registered: holds a ZooKeeper session now. Brokers "
                    + "(live, registered or holding replicas) ascend by id; offline partitions (no leader) by topic, "
                    + "then partition; under-replicated partitions (a leader, fewer in-sync replicas than replicas) likewise.",
            "Exit codes: 0 printed; 1 ZooKeeper unreachable, no cluster there, or no state published; " + "2 bad usage."
        })
public final class ClusterStatusCommand implements Callable<Integer> {

    @Option(
            names = "--zookeeper",
            paramLabel = "HOST:PORT[,...][/chroot]",
            description = "ZooKeeper of the cluster, as in zookeeper.connect.")
    String zookeeper;

    @Option(names = "--config", paramLabel = "FILE", description = "A broker's server.properties.")
    Path configFile;

    @Option(
            names = "--override",
            paramLabel = "KEY=VALUE",
            description = "Broker configuration key over the file, as for 'sluice server' (repeatable).")
    List<String> overrides = new ArrayList<>();

    @Option(
            names = "--timeout-ms",
            paramLabel = "MS",
            defaultValue = "5000",
            description = "How long to wait for a ZooKeeper server to answer (default: ${DEFAULT-VALUE}).")
    long timeoutMs;

    @Option(
            names = "--wait-ms",
            paramLabel = "MS",
            defaultValue = "10000",
            description = "How long to wait for the published state to be read (default: ${DEFAULT-VALUE}).")
    long waitMs;

    @Option(
            names = {"-b", "--bootstrap-server"},
            paramLabel = "HOST:PORT[,...]",
            description = "Brokers to ask for the progress of partition moves (default: every live broker's first "
                    + "listener, as the cluster state names it).")
    String bootstrapServer;

    @Option(
            names = {"-X", "--client-property"},
            paramLabel = "KEY=VALUE",
            description = "Kafka client property for asking the brokers, e.g. -X security.protocol=SSL (repeatable).")
    List<String> clientProperties = new ArrayList<>();

    @Option(
            names = "--progress-interval-ms",
            paramLabel = "MS",
            defaultValue = "1000",
            description = "While partitions move: time between the two readings of their progress that give each "
                    + "move's rate and ETA; 0 reads once, without them (default: ${DEFAULT-VALUE}).")
    long progressIntervalMs;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (zookeeper != null && (configFile != null || !overrides.isEmpty())) {
            throw new IllegalArgumentException("--zookeeper cannot be combined with --config or --override");
        }
        if (timeoutMs < 1 || waitMs < 0) {
            throw new IllegalArgumentException(
                    "--timeout-ms must be >= 1 and --wait-ms >= 0, got " + timeoutMs + " and " + waitMs);
        }
        if (progressIntervalMs < 0) {
            throw new IllegalArgumentException("--progress-interval-ms must be >= 0, got " + progressIntervalMs);
        }
        String connect = ZooKeeperTarget.resolve(zookeeper, configFile, KeyValue.parseAll("--override", overrides));
        ClusterConfig config = ClusterConfig.defaults().withConnectionTimeout(Duration.ofMillis(timeoutMs));
        ClusterStatus status;
        try {
            status = ClusterStatusReader.read(connect, config, Duration.ofMillis(waitMs));
        } catch (ClusterStatusException e) {
            throw new CommandFailedException(e.getMessage());
        }
        Map<String, String> moveFields = Map.of();
        if (hasReassignments(status.state())) {
            try {
                moveFields = moveProgress(status.state());
            } catch (ExecutionException | KafkaException e) {
                PrintWriter err = spec.commandLine().getErr();
                err.println(spec.qualifiedName() + ": could not read the progress of the partition moves from "
                        + bootstrapOf(status.state()) + ": " + (e.getCause() == null ? e : e.getCause()));
                err.flush();
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        for (String line : ClusterStatusFormat.lines(status, moveFields)) {
            out.println(line);
        }
        out.flush();
        if (!status.caughtUp()) {
            PrintWriter err = spec.commandLine().getErr();
            err.println(spec.qualifiedName() + ": state read up to seq "
                    + status.state().appliedSeq() + " of " + status.publishedSeq() + " within " + waitMs
                    + " ms; it may be incomplete");
            err.flush();
        }
        return 0;
    }

    private static boolean hasReassignments(ClusterState state) {
        for (TopicState topic : state.topicsById().values()) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                if (topic.partition(p).isReassigning()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Progress fields per moving partition, from two readings {@link #progressIntervalMs} apart (one if 0). */
    private Map<String, String> moveProgress(ClusterState state) throws ExecutionException, InterruptedException {
        Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapOf(state));
        props.put(CommonClientConfigs.CLIENT_ID_CONFIG, "sluice-cluster-status");
        props.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, timeoutMs));
        props.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, timeoutMs));
        props.putAll(KeyValue.parseAll("-X", clientProperties));
        try (Admin admin = Admin.create(props)) {
            MoveProgressReader reader = new MoveProgressReader(admin, Duration.ofMillis(timeoutMs));
            Map<String, Long> previous = new HashMap<>();
            double elapsedSeconds = 0;
            List<MoveProgress> moves = reader.read();
            if (progressIntervalMs > 0 && !moves.isEmpty()) {
                for (MoveProgress m : moves) {
                    previous.put(m.name(), m.shippedBytes());
                }
                long first = System.nanoTime();
                Thread.sleep(progressIntervalMs);
                moves = reader.read();
                elapsedSeconds = (System.nanoTime() - first) / 1e9;
            }
            if (!reader.silentBrokers().isEmpty()) {
                PrintWriter err = spec.commandLine().getErr();
                err.println(spec.qualifiedName() + ": broker(s) " + reader.silentBrokers()
                        + " did not report their copies within " + timeoutMs + " ms; counted as empty");
                err.flush();
            }
            Map<String, String> fields = new HashMap<>();
            for (MoveProgress m : moves) {
                fields.put(m.name(), MoveProgressFormat.statusFields(m, previous, elapsedSeconds));
            }
            return fields;
        }
    }

    private String bootstrapOf(ClusterState state) {
        if (bootstrapServer != null) {
            return bootstrapServer;
        }
        List<String> endpoints = new ArrayList<>();
        for (BrokerInfo broker : state.brokers().values()) {
            Endpoint endpoint = broker.primaryEndpoint();
            if (endpoint != null) {
                endpoints.add(endpoint.toString());
            }
        }
        return String.join(",", endpoints);
    }
}
