package io.sluice.broker.interbroker;

import io.sluice.broker.config.ForwardingConfig;
import io.sluice.broker.security.ClientSecurity;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Readable;

/**
 * This broker's channel to the active controller, over the Kafka protocol (AlterPartition, ControlledShutdown), as
 * Kafka's brokers have it: requests go out one at a time on one connection, to wherever the controller currently is.
 * A request made while no controller is known fails at once; the caller retries.
 *
 * <p>Thread-safe: requests are queued to the channel's own thread.
 */
public final class ControllerChannel implements AutoCloseable {
    private final Supplier<InetSocketAddress> controllerAddress;
    private final SerialBrokerCalls calls;
    private final ClientSecurity security;
    private final ForwardingConfig forwarding;

    /**
     * @param controllerAddress where the controller is now; null while none is known
     */
    public ControllerChannel(int selfId, Supplier<InetSocketAddress> controllerAddress, int timeoutMs) {
        this(selfId, controllerAddress, timeoutMs, ClientSecurity.plaintext());
    }

    /** @param security how this broker connects to the inter-broker listener (also used by the replica fetchers) */
    public ControllerChannel(
            int selfId, Supplier<InetSocketAddress> controllerAddress, int timeoutMs, ClientSecurity security) {
        this(selfId, controllerAddress, timeoutMs, security, ForwardingConfig.defaults());
    }

    /** @param forwarding how long and how often a forwarded change is retried while no controller takes it */
    public ControllerChannel(
            int selfId,
            Supplier<InetSocketAddress> controllerAddress,
            int timeoutMs,
            ClientSecurity security,
            ForwardingConfig forwarding) {
        this.forwarding = forwarding;
        this.controllerAddress = controllerAddress;
        this.security = security;
        this.calls = new SerialBrokerCalls(
                "controller channel",
                "sluice-controller-channel-" + selfId,
                new BrokerClient("sluice-broker-" + selfId + "-to-controller", 16 * 1024 * 1024, timeoutMs, security));
    }

    /** How this broker connects to other brokers' inter-broker listener. */
    public ClientSecurity security() {
        return security;
    }

    /** How a change forwarded over this channel is retried while no controller takes it. */
    public ForwardingConfig forwarding() {
        return forwarding;
    }

    /** Sends {@code request} to the controller and parses its response with {@code parser} on the channel thread. */
    public <T> CompletableFuture<T> send(ApiKeys api, short version, ApiMessage request, Function<Readable, T> parser) {
        return calls.submit(client -> {
            InetSocketAddress target = controllerAddress.get();
            if (target == null) {
                throw new IOException("no controller is known");
            }
            client.target(target);
            ByteBuffer body = client.call(api, version, request);
            return parser.apply(new ByteBufferAccessor(body));
        });
    }

    @Override
    public void close() {
        calls.close();
    }
}
