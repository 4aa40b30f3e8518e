package io.sluice.broker.network;

/**
 * Told of every Kafka client connection a listener accepts and of its close, with the network thread (Kafka's
 * network processor) that serves it. The broker's socket-server metrics implement it; {@link #NONE} ignores all.
 *
 * <p>Implementations are thread-safe and cheap: they run on network threads, once per connection.
 */
public interface ConnectionObserver {
    ConnectionObserver NONE = new ConnectionObserver() {
        @Override
        public void opened(String listenerName, int networkThread) {}

        @Override
        public void closed(String listenerName, int networkThread) {}
    };

    void opened(String listenerName, int networkThread);

    void closed(String listenerName, int networkThread);
}
