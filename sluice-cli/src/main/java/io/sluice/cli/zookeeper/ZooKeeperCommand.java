package io.sluice.cli.zookeeper;

import io.sluice.cli.CommandFailedException;
import io.sluice.cli.process.StopSignals;
import io.sluice.cluster.zk.EmbeddedZooKeeper;
import java.io.PrintStream;
import java.net.BindException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice zookeeper}: a standalone ZooKeeper server for brokers that share one cluster, until SIGTERM/SIGINT.
 * Sessions restored from the data directory are left to expire on their own: they belong to brokers that may still
 * be running and reconnect. Not thread-safe; one per process.
 */
@Command(
        name = "zookeeper",
        mixinStandardHelpOptions = true,
        description = {
            "Run a standalone ZooKeeper on 127.0.0.1 for a multi-broker cluster.",
            "Brokers point at it with zookeeper.connect=127.0.0.1:PORT[/chroot].",
            "Prints one line when ready: ZooKeeper listening on 127.0.0.1:<port>, data in <dir>",
            "Runs until SIGTERM or Ctrl-C, then exits with 0; the data stays in DIR."
        })
public final class ZooKeeperCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperCommand.class);
    /** ZooKeeper's customary client port. */
    public static final int DEFAULT_PORT = 2181;

    private static final int MAX_PORT = 65535;

    @Option(
            names = "--port",
            paramLabel = "PORT",
            defaultValue = "" + DEFAULT_PORT,
            description = "Client port on 127.0.0.1 (default: ${DEFAULT-VALUE}; 0 picks a free port).")
    int port = DEFAULT_PORT;

    @Option(
            names = "--dir",
            paramLabel = "DIR",
            defaultValue = "./data/zookeeper",
            description = "Snapshots and transaction log (default: ${DEFAULT-VALUE}).")
    Path dir;

    private final PrintStream out;

    public ZooKeeperCommand() {
        this(System.out);
    }

    ZooKeeperCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > MAX_PORT) {
            throw new IllegalArgumentException("--port must be in 0.." + MAX_PORT + ", got " + port);
        }
        EmbeddedZooKeeper server;
        try {
            server = EmbeddedZooKeeper.start(dir, port, 0);
        } catch (BindException e) {
            throw new CommandFailedException(
                    "cannot listen on 127.0.0.1:" + port + " (" + e.getMessage() + "; another ZooKeeper running?)");
        }
        int bound = server.port();
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean closed = new AtomicBoolean();
        StopSignals.install("ZooKeeper", () -> {
            if (closed.compareAndSet(false, true)) {
                server.close();
            }
            stopped.countDown();
        });
        out.println(readyLine(bound, dir));
        out.flush();
        stopped.await();
        LOG.info("ZooKeeper on port {} stopped", bound);
        return 0;
    }

    /** The one stdout line: {@code ZooKeeper listening on 127.0.0.1:<port>, data in <dir>}. */
    public static String readyLine(int boundPort, Path dataDir) {
        return "ZooKeeper listening on 127.0.0.1:" + boundPort + ", data in " + dataDir;
    }
}
