package io.sluice.cli.process;

import io.sluice.codec.SuppressForbidden;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * How a long-running command ({@code server}, {@code zookeeper}) stops: SIGTERM and SIGINT run its stop action
 * instead of the JVM's default, so a signalled stop exits with 0, not 143; a shutdown hook runs the same action
 * where the JVM keeps the signals (-Xrs) or the process exits another way. The stop action must be idempotent.
 * Stateless; thread-safe.
 */
@SuppressForbidden(reason = "sun.misc.Signal is the only way to run a stop action on SIGTERM/SIGINT and exit with 0")
public final class StopSignals {
    private static final Logger LOG = LoggerFactory.getLogger(StopSignals.class);
    private static final List<String> STOP_SIGNALS = List.of("TERM", "INT");

    private StopSignals() {}

    /**
     * @param what  what stops, for the log line ("broker 1", "ZooKeeper")
     * @param stop  idempotent stop action, run on the signal thread or the shutdown hook
     */
    public static void install(String what, Runnable stop) {
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "sluice-shutdown"));
        for (String name : STOP_SIGNALS) {
            try {
                Signal.handle(new Signal(name), received -> {
                    LOG.info("Received SIG{}, stopping {}", received.getName(), what);
                    stop.run();
                });
            } catch (IllegalArgumentException unavailable) {
                LOG.debug(
                        "SIG{} stays with the JVM ({}); the shutdown hook stops {}",
                        name,
                        unavailable.getMessage(),
                        what);
            }
        }
    }
}
