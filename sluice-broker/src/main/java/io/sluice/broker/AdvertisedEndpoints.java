package io.sluice.broker;

import io.sluice.broker.cluster.BrokerNode;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.Listener;
import io.sluice.broker.network.NetworkServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Where other brokers and clients reach this broker, per advertised listener. Stateless; thread-safe. */
final class AdvertisedEndpoints {
    private AdvertisedEndpoints() {}

    /**
     * This broker's endpoint per advertised listener, the inter-broker listener first (other brokers reach each broker
     * at its first endpoint): a wildcard or empty host becomes this machine's name, port 0 or the bound port the one
     * the listener of that name is bound to.
     */
    static Map<String, BrokerNode> of(BrokerConfig config, NetworkServer server) throws IOException {
        List<Listener> order = new ArrayList<>(config.advertisedListeners());
        Listener interBroker = config.interBrokerListener();
        order.remove(interBroker);
        order.add(0, interBroker);
        String rack = config.brokerRack().isEmpty() ? null : config.brokerRack();
        Map<String, BrokerNode> byName = new LinkedHashMap<>();
        for (Listener advertised : order) {
            InetSocketAddress bound = server.boundAddress(advertised.name());
            Listener configured = config.listeners().stream()
                    .filter(l -> l.name().equals(advertised.name()))
                    .findFirst()
                    .orElseThrow();
            String host =
                    advertised.host() == null || advertised.host().isBlank() || "0.0.0.0".equals(advertised.host())
                            ? InetAddress.getLocalHost().getCanonicalHostName()
                            : advertised.host();
            int port = advertised.port() == 0 || advertised.port() == configured.port()
                    ? bound.getPort()
                    : advertised.port();
            byName.put(advertised.name(), new BrokerNode(config.brokerId(), host, port, rack));
        }
        return byName;
    }
}
