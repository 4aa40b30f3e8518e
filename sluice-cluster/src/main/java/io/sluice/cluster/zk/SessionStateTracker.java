package io.sluice.cluster.zk;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/**
 * Follows one Curator client's ZooKeeper session for metrics: whether it is connected, suspended (connection lost,
 * session possibly still alive) or lost (Curator's LOST: ZooKeeper expired the session, or the client stayed
 * disconnected past the session timeout), and how many times it was lost. A lost session is a session expiration in
 * Kafka's sense ({@code ZooKeeperExpiresPerSec}): every ephemeral znode of the broker is gone.
 *
 * <p>Thread-safe; Curator calls it on its event thread, readers read from any thread.
 */
public final class SessionStateTracker implements ConnectionStateListener {
    /** What the session is now; {@link #code()} is the number a numeric gauge shows. */
    public enum SessionState {
        CONNECTED(0),
        SUSPENDED(1),
        LOST(2);

        private final int code;

        SessionState(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }
    }

    /** Told of every change of state, on Curator's event thread. */
    @FunctionalInterface
    public interface Listener {
        void changed(SessionState state);
    }

    private static final Listener NONE = state -> {};

    private final AtomicLong expirations = new AtomicLong();
    /** Not connected until Curator says so: a client that never connected has no session to show. */
    private volatile SessionState state = SessionState.SUSPENDED;

    private volatile Listener listener = NONE;

    /** Starts following {@code client}'s connection (add before the client starts to see its first connection). */
    public static SessionStateTracker follow(CuratorFramework client) {
        SessionStateTracker tracker = new SessionStateTracker();
        client.getConnectionStateListenable().addListener(tracker);
        if (client.getZookeeperClient().isConnected()) {
            tracker.state = SessionState.CONNECTED;
        }
        return tracker;
    }

    public SessionState state() {
        return state;
    }

    /** Sessions lost since this tracker started. */
    public long expirations() {
        return expirations.get();
    }

    /** Sets the one listener (the broker's metrics); replaces any earlier one. */
    public void listen(Listener changes) {
        this.listener = changes == null ? NONE : changes;
    }

    @Override
    public void stateChanged(CuratorFramework client, ConnectionState newState) {
        SessionState next = switch (newState) {
            case CONNECTED, RECONNECTED -> SessionState.CONNECTED;
            // Read-only mode is not enabled by Sluice; if a server offers it, nothing can be written: not connected.
            case SUSPENDED, READ_ONLY -> SessionState.SUSPENDED;
            case LOST -> SessionState.LOST;
        };
        if (next == SessionState.LOST) {
            expirations.incrementAndGet();
        }
        state = next;
        listener.changed(next);
    }
}
