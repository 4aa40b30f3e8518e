package io.sluice.broker.move;

import java.net.SocketAddress;

/**
 * A connection a target opened to this (source) broker for a move, as {@link MoveSource} sees it: the network
 * layer's channel without its API. Two instances for the same connection are equal. Implementations are thread-safe.
 */
public interface InboundMoveConnection {

    /** Runs {@code action} once the connection is closed (at once when it already is). */
    void whenClosed(Runnable action);

    /** The peer's address, for logs. */
    SocketAddress remoteAddress();
}
