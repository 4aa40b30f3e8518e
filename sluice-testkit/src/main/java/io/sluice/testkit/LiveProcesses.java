package io.sluice.testkit;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Child processes still running, killed by a JVM shutdown hook so that a test JVM that dies or is interrupted
 * never leaves a broker behind holding a port and a data directory.
 *
 * <p>Thread-safe; one per test JVM.
 */
final class LiveProcesses {

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(LiveProcesses::killAll, "sluice-testkit-reaper"));
    }

    private LiveProcesses() {}

    static void remember(Process process) {
        LIVE.add(process);
    }

    static void forget(Process process) {
        if (process != null) {
            LIVE.remove(process);
        }
    }

    private static void killAll() {
        for (Process process : LIVE) {
            process.destroyForcibly();
        }
    }
}
