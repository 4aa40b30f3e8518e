package io.sluice.cli.cluster;

import io.sluice.cli.CommandFailedException;
import io.sluice.cli.client.KeyValue;
import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.status.ClusterStatus;
import io.sluice.cluster.status.ClusterStatusException;
import io.sluice.cluster.status.ClusterStatusReader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
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
            "  Topics: <n>\\tPartitions: <n>\\tOfflinePartitions: <n>\\tUnderReplicatedPartitions: <n>\\tLiveBrokers: <n>",
            "  Broker: <id>\\tEndpoint: <host:port or ->\\tRack: <rack or ->\\tLive: yes|no\\tRegistered: yes|no"
                    + "\\tLeads: <n>\\tHosts: <n>",
            "  OfflinePartition: <topic>-<partition>\\tReplicas: <id,id...>",
            "  UnderReplicatedPartition: <topic>-<partition>\\tLeader: <id>\\tReplicas: <id,id...>\\tIsr: <id,id...>",
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
        String connect = ZooKeeperTarget.resolve(zookeeper, configFile, KeyValue.parseAll("--override", overrides));
        ClusterConfig config = ClusterConfig.defaults().withConnectionTimeout(Duration.ofMillis(timeoutMs));
        ClusterStatus status;
        try {
            status = ClusterStatusReader.read(connect, config, Duration.ofMillis(waitMs));
        } catch (ClusterStatusException e) {
            throw new CommandFailedException(e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        for (String line : ClusterStatusFormat.lines(status)) {
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
}
