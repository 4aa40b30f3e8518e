package io.sluice.broker;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a starting broker has started so far, each with how to stop it: a start that fails stops them in reverse order
 * (the latest first, as each may use those before it), so a failed start leaves no thread, port or lock behind.
 *
 * <p>Not thread-safe; used by the starting thread only.
 */
final class StartedParts {
    private static final Logger LOG = LoggerFactory.getLogger(StartedParts.class);

    /** How one part stops. */
    @FunctionalInterface
    interface Stop {
        void stop() throws Exception;
    }

    private final Deque<Stop> stops = new ArrayDeque<>();

    /** Records that a part was started and stops with {@code stop}. */
    void add(Stop stop) {
        stops.push(stop);
    }

    /** Stops every part started, the latest first; a part that fails to stop is logged and the others still stop. */
    void stopAll() {
        while (!stops.isEmpty()) {
            try {
                stops.pop().stop();
            } catch (Exception e) {
                LOG.warn("Stopping a part of a broker that failed to start failed", e);
            }
        }
    }
}
